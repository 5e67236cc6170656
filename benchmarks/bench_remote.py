"""Remote API timings: end-to-end latency and streaming rate, two real processes.

    xvfb-run -a -s "-screen 0 1920x1080x24" python benchmarks/bench_remote.py

* latency: a client process sends ``stream_q`` in Follow mode (a new joint vector each
  time) to ``python -m robogui --listen`` and waits for the ``q`` event the app sends back
  once the GUI thread has applied it (network thread -> queued Qt signal -> session ->
  event -> network thread -> client). Median and 95th percentile over ``--samples`` round
  trips, against one frame at 60 fps (16.7 ms). Also for ``set_q``, a complete change
  (the plots and the undo stack follow it before the event). The floor: the same round
  trip to a bare ``websockets`` echo server in this process; and the stream_q round trip
  to the same server with no window (the session alone on a QCoreApplication): what the
  protocol and the thread hand-over cost without drawing. And the app's CPU time per
  followed sample (all threads, and the GUI thread alone; /proc): on a shared machine the
  latency stretches with the load average, the CPU per sample much less.
* latency inside a stream (the issue's case): 2,000 ``stream_q`` at 500 Hz, sent without
  waiting for anything; the app draws the newest sample of each GUI-thread turn and sends
  its ``q`` event; each sample's latency runs from its sending until an event shows it or
  a newer sample.
* streaming: 2,000 ``stream_q`` messages sent as fast as the client can, then ``get_q``;
  rate = 2,000 / time until the reply shows the last vector (every sample is checked on
  the GUI thread; the robot is drawn at the newest). And paced at 500 Hz: the lag from the
  last sample sent to the reply showing it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from websockets.sync.client import connect  # noqa: E402

FRAME_60 = 1 / 60


def start_app(folder: Path) -> tuple[subprocess.Popen, dict]:
    runtime = folder / "runtime.json"
    env = {**os.environ, "HOME": str(folder), "XDG_CONFIG_HOME": str(folder),
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.Popen([sys.executable, "-m", "robogui", "--listen", "127.0.0.1:0",
                             "--token-file", str(runtime), "--no-restore", "--size", "1280x800"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 90
    while not runtime.exists():
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError("robogui --listen did not start")
        time.sleep(0.05)
    time.sleep(2.0)  # let the first frame and the plot docks settle
    return proc, json.loads(runtime.read_text())


def cpu_seconds(pid: int, thread: int | None = None) -> float:
    """CPU time (user + system, s) of process ``pid`` (all its threads), or of its thread
    ``thread`` (the GUI thread is the process's first: ``thread=pid``), from /proc. Under
    a shared machine's load the wall-clock latency stretches; the CPU spent per sample
    does much less."""
    path = f"/proc/{pid}/task/{thread}/stat" if thread else f"/proc/{pid}/stat"
    fields = Path(path).read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def latency(ws, samples: int, op: str = "set_q") -> list[float]:
    out = []
    rng = np.random.default_rng(0)
    for _ in range(samples):
        q = rng.uniform(-1, 1, 6).tolist()
        t0 = time.perf_counter()
        ws.send(json.dumps({"op": op, "q": q}))
        while True:
            message = json.loads(ws.recv(10))
            if message.get("event") == "q" and message["q"] == q:
                break
        out.append(time.perf_counter() - t0)
        time.sleep(0.005)
    return out


def echo_latency(samples: int) -> list[float]:
    """The same round trip to a bare websockets echo server (a thread of this process)."""
    from websockets.asyncio.server import serve

    ready, box = threading.Event(), {}

    async def echo(ws):
        async for message in ws:
            await ws.send(message)

    async def main():
        async with serve(echo, "127.0.0.1", 0, compression=None) as server:
            box["port"] = next(iter(server.sockets)).getsockname()[1]
            box["stop"] = asyncio.Event()
            ready.set()
            await box["stop"].wait()

    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_until_complete, args=(main(),), daemon=True)
    thread.start()
    ready.wait(10)
    out = []
    with connect(f"ws://127.0.0.1:{box['port']}", compression=None) as ws:
        for k in range(samples):
            text = json.dumps({"op": "set_q", "q": [k * 1e-3] * 6})
            t0 = time.perf_counter()
            ws.send(text)
            ws.recv(10)
            out.append(time.perf_counter() - t0)
    loop.call_soon_threadsafe(box["stop"].set)
    thread.join(5)
    return out


def windowless_latency(samples: int) -> list[float]:
    """The same stream_q round trip to the same server with no window (a QCoreApplication,
    the session alone): the protocol's and the thread hand-over's own cost, no drawing."""
    from PySide6 import QtCore

    from robogui.app.remote.server import RemoteServer
    from robogui.io.robotfile import load_robot
    from robogui.session import Session
    from robogui.session.remote_api.api import RemoteApi

    app = QtCore.QCoreApplication.instance() or QtCore.QCoreApplication([])
    api = RemoteApi(Session(load_robot("puma560")))
    api.live.set_follow(True)
    server = RemoteServer(api, "127.0.0.1", 0, "t")
    server.start()
    box = {}

    def client():
        with connect(f"ws://127.0.0.1:{server.port}", compression=None) as ws:
            ws.send(json.dumps({"op": "hello", "token": "t", "events": ["q"], "id": 0}))
            ws.recv(10)
            box["lat"] = latency(ws, samples, "stream_q")
        QtCore.QMetaObject.invokeMethod(app, "quit", QtCore.Qt.ConnectionType.QueuedConnection)

    thread = threading.Thread(target=client)
    thread.start()
    app.exec()
    thread.join()
    server.close()
    return box["lat"]


def stream_rate(ws, count: int = 2000) -> float:
    qs = np.random.default_rng(1).uniform(-1, 1, (count, 6))
    t0 = time.perf_counter()
    for q in qs:
        ws.send(json.dumps({"op": "stream_q", "q": q.tolist()}))
    ws.send(json.dumps({"op": "get_q", "id": "last"}))
    while True:
        message = json.loads(ws.recv(30))
        if message.get("id") == "last":
            break
    assert message["result"]["q"] == qs[-1].tolist()
    return count / (time.perf_counter() - t0)


def paced_lag(ws, count: int = 2000, hz: float = 500.0) -> float:
    qs = np.random.default_rng(2).uniform(-1, 1, (count, 6))
    start = time.perf_counter()
    for k, q in enumerate(qs):
        ws.send(json.dumps({"op": "stream_q", "q": q.tolist()}))
        wait = start + (k + 1) / hz - time.perf_counter()
        if wait > 0:
            time.sleep(wait)
    t_last = time.perf_counter()
    ws.send(json.dumps({"op": "get_q", "id": "paced"}))
    while True:
        message = json.loads(ws.recv(30))
        if message.get("id") == "paced":
            break
    assert message["result"]["q"] == qs[-1].tolist()
    return time.perf_counter() - t_last


def stream_latency(ws, count: int = 2000, hz: float = 500.0) -> tuple[np.ndarray, int]:
    """The issue's case: a controller streams ``count`` vectors at ``hz`` without waiting.
    The app sends a ``q`` event for the sample it draws (the newest of each GUI-thread
    turn); every sample's latency is the time from its sending until an event shows it or
    a newer sample. Returns (latencies of the samples, s; how many events came)."""
    qs = np.random.default_rng(3).uniform(-1, 1, (count, 6))
    index = {tuple(q.tolist()): k for k, q in enumerate(qs)}
    t_sent = np.zeros(count)
    events: list[tuple[float, int]] = []  # (arrival time, index of the sample shown)
    done = threading.Event()

    def read():
        while not done.is_set():
            try:
                message = json.loads(ws.recv(0.5))
            except TimeoutError:
                continue
            except Exception:  # noqa: BLE001 - connection closed
                return
            if message.get("event") == "q" and tuple(message["q"]) in index:
                events.append((time.perf_counter(), index[tuple(message["q"])]))
            if message.get("id") == "end":
                done.set()

    reader = threading.Thread(target=read)
    reader.start()
    start = time.perf_counter()
    for k, q in enumerate(qs):
        t_sent[k] = time.perf_counter()
        ws.send(json.dumps({"op": "stream_q", "q": q.tolist()}))
        wait = start + (k + 1) / hz - time.perf_counter()
        if wait > 0:
            time.sleep(wait)
    time.sleep(0.5)
    ws.send(json.dumps({"op": "get_q", "id": "end"}))
    reader.join(30)
    arrival = np.array([t for t, _ in events])
    newest = np.maximum.accumulate(np.array([k for _, k in events]))
    first = np.searchsorted(newest, np.arange(count))  # first event showing k or newer
    shown = first < len(events)
    return arrival[first[shown]] - t_sent[shown], len(events)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--samples", type=int, default=300, help="latency round trips")
    p.add_argument("--streams", type=int, default=3,
                   help="500 Hz streams of 2,000 samples (their latencies pooled: a shared "
                        "machine's hiccups show less)")
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        proc, info = start_app(Path(folder))
        try:
            with connect(info["url"], compression=None) as ws:
                ws.send(json.dumps({"op": "hello", "token": info["token"], "events": ["q"],
                                    "id": 0}))
                assert json.loads(ws.recv(10))["ok"]
                lat_set = latency(ws, args.samples)
                ws.send(json.dumps({"op": "follow", "on": True, "id": 2}))
                while json.loads(ws.recv(10)).get("id") != 2:
                    pass
                cpu0 = cpu_seconds(proc.pid), cpu_seconds(proc.pid, proc.pid)
                lat = latency(ws, args.samples, "stream_q")
                cpu = [(b - a) / args.samples for a, b in
                       zip(cpu0, (cpu_seconds(proc.pid), cpu_seconds(proc.pid, proc.pid)),
                           strict=True)]
                runs = [stream_latency(ws) for _ in range(max(1, args.streams))]
                live = np.concatenate([r[0] for r in runs])
                sent = sum(r[1] for r in runs)
                run_medians = [float(np.median(r[0])) * 1e3 for r in runs]
                ws.send(json.dumps({"op": "subscribe", "events": [], "id": 1}))
                while json.loads(ws.recv(10)).get("id") != 1:
                    pass
                rate = stream_rate(ws)
                lag = paced_lag(ws)
        finally:
            proc.terminate()
            proc.wait(20)
    floor = echo_latency(args.samples)
    bare = windowless_latency(args.samples)
    med, p95 = statistics.median(lat), float(np.percentile(lat, 95))
    med_echo = statistics.median(floor)
    load = os.getloadavg()[0]
    print(f"window 1280x800; load average {load:.1f} on {os.cpu_count()} cores")
    print(f"latency stream_q -> q event (Follow): median {med * 1e3:.2f} ms, 95th percentile "
          f"{p95 * 1e3:.2f} ms ({args.samples} round trips; one frame at 60 fps: "
          f"{FRAME_60 * 1e3:.1f} ms) -> {'OK' if med < FRAME_60 else 'over one frame'}")
    print(f"latency in a 500 Hz stream ({len(runs)} x 2,000 samples sent without waiting; each "
          f"until a q event shows it or a newer one): median {np.median(live) * 1e3:.2f} ms, "
          f"95th percentile {float(np.percentile(live, 95)) * 1e3:.2f} ms (medians of the "
          f"runs: {', '.join(f'{m:.1f}' for m in run_medians)} ms); {sent} events in "
          f"{4 * len(runs)} s -> {'OK' if np.median(live) < FRAME_60 else 'over one frame'}")
    print(f"app CPU per followed sample (latency loop): {cpu[0] * 1e3:.1f} ms in all its "
          f"threads (GL rasteriser included), {cpu[1] * 1e3:.1f} ms on the GUI thread")
    print(f"latency set_q -> q event (a complete change: plots, torques, undo step): median "
          f"{statistics.median(lat_set) * 1e3:.2f} ms, 95th percentile "
          f"{float(np.percentile(lat_set, 95)) * 1e3:.2f} ms")
    print(f"the same without a window (no drawing): median {statistics.median(bare) * 1e3:.2f} "
          f"ms, 95th percentile {float(np.percentile(bare, 95)) * 1e3:.2f} ms")
    print(f"bare websockets echo round trip: median {med_echo * 1e3:.2f} ms "
          f"(robogui / echo: {med / med_echo:.1f}x)")
    print(f"streaming, as fast as the client sends: {rate:,.0f} vectors/s (2,000 stream_q, "
          "all checked, the newest drawn)")
    print(f"streaming at 500 Hz: 2,000 vectors, last one shown {lag * 1e3:.1f} ms after it "
          "was sent")
    return 0


if __name__ == "__main__":
    sys.exit(main())
