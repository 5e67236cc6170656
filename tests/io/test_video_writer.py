"""Video files and image sequences written through imageio-ffmpeg, read back with imageio."""

from __future__ import annotations

import imageio.v3 as iio
import numpy as np
import pytest

from robogui.io.video import SequenceWriter, VideoWriter, open_video, video_kind


def frames(n=20, w=64, h=48):
    out = []
    for k in range(n):
        f = np.full((h, w, 3), 40, np.uint8)
        f[10:30, 2 * k: 2 * k + 12] = (220, 60, 40)  # a block moving right
        out.append(f)
    return out


@pytest.mark.parametrize("suffix", [".mp4", ".webm", ".gif"])
def test_every_frame_comes_back(tmp_path, suffix):
    path = tmp_path / f"clip{suffix}"
    fr = frames()
    fr[1] = fr[0].copy()  # identical frames are kept (a robot at rest)
    with open_video(path, (64, 48), 25) as w:
        for f in fr:
            w.append(f)
    back = iio.imread(path, index=None, plugin="pillow" if suffix == ".gif" else "pyav")
    assert back.shape[:3] == (20, 48, 64)
    # the block moved: its column centre follows the frames
    red = (back[..., 0].astype(int) - back[..., 2]) > 80
    cols = [np.nonzero(r.any(axis=0))[0].mean() for r in red]
    assert cols[-1] - cols[2] == pytest.approx(2 * 17, abs=2)
    assert not list(tmp_path.glob(".*part"))


def test_sequence_names_and_patterns(tmp_path):
    w = open_video(tmp_path / "seq" / "f_%03d.png", (64, 48), 10)
    assert isinstance(w, SequenceWriter)
    for f in frames(3):
        w.append(f)
    w.close()
    assert sorted(p.name for p in (tmp_path / "seq").iterdir()) == ["f_000.png", "f_001.png",
                                                                    "f_002.png"]
    w = open_video(str(tmp_path / "folder") + "/", (64, 48), 10)
    w.append(frames(1)[0])
    assert (tmp_path / "folder" / "frame_0000.png").exists()
    assert iio.imread(tmp_path / "folder" / "frame_0000.png").shape == (48, 64, 3)


def test_bad_outputs_are_named(tmp_path):
    with pytest.raises(ValueError, match="unknown output type '.avi'"):
        video_kind(tmp_path / "x.avi")
    assert video_kind(tmp_path / "x.PNG") == "still"
    with pytest.raises(ValueError, match="even width"):
        VideoWriter(tmp_path / "odd.mp4", (65, 48), 25)
    with pytest.raises(ValueError, match="fps"):
        VideoWriter(tmp_path / "x.mp4", (64, 48), 0)
    w = VideoWriter(tmp_path / "y.mp4", (64, 48), 25)
    with pytest.raises(ValueError, match=r"\(48, 64, 3\) uint8"):
        w.append(np.zeros((48, 64), np.uint8))
    w.abort()  # a cancelled export leaves nothing behind
    assert list(tmp_path.iterdir()) == []
