"""Engine speed against roboticstoolbox-python and Pinocchio, in one run.

    pip install -e ".[bench]"
    python benchmarks/bench_engine.py            # table on stdout
    python benchmarks/bench_engine.py --markdown # the table for the README

Each section module appends rows ``{name, robogui_s, rtb_s, pin_s, ratio, target}``;
``ratio`` is the faster peer's time over robogui's (higher is better for robogui).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_dynamics  # noqa: E402
import bench_kinematics  # noqa: E402
import bench_scale  # noqa: E402


def _fmt_time(seconds):
    if seconds is None:
        return "-"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} us"
    return f"{seconds * 1e3:.2f} ms"


def format_table(rows, markdown=False):
    head = ["benchmark", "robogui", "RTB-Py", "Pinocchio", "ratio", "target"]
    body = [
        [r["name"], _fmt_time(r.get("robogui_s")), _fmt_time(r.get("rtb_s")),
         _fmt_time(r.get("pin_s")),
         "-" if r.get("ratio") is None else f"{r['ratio']:.1f}x", r.get("target", "")]
        for r in rows
    ]
    if markdown:
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        lines += ["| " + " | ".join(row) + " |" for row in body]
        return "\n".join(lines)
    widths = [max(len(str(x)) for x in col) for col in zip(head, *body, strict=False)]
    fmt = "  ".join(f"{{:<{w}}}" for w in widths)
    return "\n".join([fmt.format(*head), fmt.format(*("-" * w for w in widths))]
                     + [fmt.format(*row) for row in body])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = parser.parse_args(argv)
    rows: list[dict] = []
    bench_kinematics.run(rows)
    bench_dynamics.run(rows)
    bench_scale.run(rows)
    print(format_table(rows, markdown=args.markdown))


if __name__ == "__main__":
    main()
