"""Writing frames to video files and image sequences (Qt-free).

Encoding goes through imageio-ffmpeg, whose wheel carries an ffmpeg binary (nothing is
downloaded at run time): MP4 is H.264 (``libx264``, ``yuv420p``, plays everywhere),
WebM is VP9 (``libvpx-vp9``), GIF is ffmpeg's GIF encoder behind a palette made for the
whole clip (``palettegen``/``paletteuse``: one good 256-colour palette, every frame
kept, so the frame count is exactly what was rendered). A folder, or a name with
``%04d`` or ``{}`` in it, gives a PNG image sequence (written by imageio).

:func:`open_video` returns a writer with ``append(frame)`` for (h, w, 3) uint8 RGB
frames and ``close()``; the output file appears complete or not at all (frames go to a
temporary name, renamed on a successful close).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

__all__ = ["VIDEO_FORMATS", "open_video", "video_kind", "frame_pattern", "VideoWriter",
           "SequenceWriter"]

#: suffix -> (ffmpeg codec, output pixel format)
VIDEO_FORMATS = {".mp4": ("libx264", "yuv420p"), ".webm": ("libvpx-vp9", "yuv420p"),
                 ".gif": ("gif", "pal8")}
STILL_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff")

_GIF_FILTER = ("split[a][b];[a]palettegen=stats_mode=diff[p];"
               "[b][p]paletteuse=dither=bayer:bayer_scale=4:diff_mode=rectangle")


def video_kind(path) -> str:
    """``"video"``, ``"sequence"`` (PNG files in a folder) or ``"still"`` for an output path.

    Raises ValueError for a suffix robogui cannot write.
    """
    text = str(path)
    p = Path(text)
    if "%" in p.name or "{" in p.name:
        frame_pattern(p.name)  # one documented frame field, nothing else
        return "sequence"
    if text.endswith(("/", os.sep)) or p.is_dir():
        return "sequence"
    suffix = p.suffix.lower()
    if suffix in VIDEO_FORMATS:
        return "video"
    if suffix in STILL_SUFFIXES:
        return "still"
    known = ", ".join(list(VIDEO_FORMATS) + list(STILL_SUFFIXES))
    raise ValueError(f"{path}: unknown output type {suffix or '(no suffix)'!r}; use one of "
                     f"{known}, or a folder / a name with %04d for an image sequence")


def _check_frame(frame: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    a = np.asarray(frame)
    w, h = size
    if a.shape != (h, w, 3) or a.dtype != np.uint8:
        raise ValueError(f"a frame must be ({h}, {w}, 3) uint8, got {a.shape} {a.dtype}")
    return np.ascontiguousarray(a)


class VideoWriter:
    """An MP4, WebM or GIF file written frame by frame through ffmpeg.

    ``size`` (width, height) px; ``fps`` frames per second. MP4 and WebM (4:2:0 chroma)
    need an even width and height.
    """

    def __init__(self, path, size: tuple[int, int], fps: float, *, quality: float = 8.0):
        import imageio_ffmpeg

        self.path = Path(path)
        suffix = self.path.suffix.lower()
        if suffix not in VIDEO_FORMATS:
            raise ValueError(f"{path}: not a video suffix ({', '.join(VIDEO_FORMATS)})")
        w, h = (int(v) for v in size)
        if suffix != ".gif" and (w % 2 or h % 2):
            raise ValueError(f"{path}: {suffix[1:].upper()} needs an even width and height, "
                             f"got {w}x{h}")
        if not (np.isfinite(fps) and fps > 0):
            raise ValueError(f"fps must be a positive number, got {fps!r}")
        self.size, self.fps, self.count = (w, h), float(fps), 0
        codec, pix_fmt = VIDEO_FORMATS[suffix]
        params = ["-f", {".mp4": "mp4", ".webm": "webm", ".gif": "gif"}[suffix]]
        if suffix == ".gif":
            params += ["-filter_complex", _GIF_FILTER, "-loop", "0"]
            quality = None
        elif suffix == ".mp4":
            params += ["-movflags", "+faststart"]
        else:  # VP9: constant quality
            params += ["-b:v", "0", "-crf", "32", "-row-mt", "1"]
            quality = None
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._tmp = self.path.with_name(f".{self.path.name}.part")
        self._gen = imageio_ffmpeg.write_frames(
            str(self._tmp), (w, h), fps=self.fps, codec=codec, pix_fmt_out=pix_fmt,
            quality=quality, macro_block_size=1, output_params=params,
            ffmpeg_log_level="error")
        self._gen.send(None)  # starts ffmpeg
        self._open = True

    def append(self, frame: np.ndarray) -> None:
        """Add one (h, w, 3) uint8 RGB frame."""
        self._gen.send(_check_frame(frame, self.size))
        self.count += 1

    def close(self) -> Path:
        """Finish the file (renamed into place); returns its path."""
        if self._open:
            self._open = False
            self._gen.close()
            os.replace(self._tmp, self.path)
        return self.path

    def abort(self) -> None:
        """Stop without writing the file (a cancelled export)."""
        if self._open:
            self._open = False
            try:
                self._gen.close()
            finally:
                self._tmp.unlink(missing_ok=True)

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            self.close()
        else:
            self.abort()


class SequenceWriter:
    """PNG files ``frame_0000.png``, ... in a folder, or named by a pattern with ``%04d``
    or ``{}`` (``{:04d}``-style) in it."""

    def __init__(self, path, size: tuple[int, int], fps: float = 0.0,
                 pattern: str = "frame_{:04d}.png"):
        text = str(path)
        p = Path(text)
        if "%" in p.name or "{" in p.name:
            self.folder, self.pattern = p.parent, frame_pattern(p.name)
        else:
            self.folder, self.pattern = p, frame_pattern(pattern)
        self.size, self.fps, self.count = (int(size[0]), int(size[1])), float(fps), 0
        self.paths: list[Path] = []
        self.folder.mkdir(parents=True, exist_ok=True)
        self.path = self.folder

    def append(self, frame: np.ndarray) -> None:
        import imageio.v3 as iio

        prefix, width, suffix = self.pattern
        path = self.folder / f"{prefix}{self.count:0{width}d}{suffix}"
        iio.imwrite(path, _check_frame(frame, self.size))
        self.paths.append(path)
        self.count += 1

    def close(self) -> Path:
        return self.folder

    def abort(self) -> None:
        """Keep the frames written so far (each file is complete)."""

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        self.close()


def frame_pattern(name: str) -> tuple[str, int, str]:
    """(prefix, digits, suffix) of an image-sequence name with exactly one frame field:
    ``%d``, ``%04d``, ``{}`` or ``{:04d}`` (at most 9 digits). Nothing else in the name is
    interpreted (never a Python format field: ``{0.__class__}`` is refused); a ``%`` or a
    brace outside that field is refused too. Raises ValueError."""
    import re

    fields = list(re.finditer(r"%(0?)(\d?)d|\{(?::(0?)(\d?)d)?\}", name))
    rest = re.sub(r"%0?\d?d|\{(?::0?\d?d)?\}", "", name)
    if len(fields) != 1 or "%" in rest or "{" in rest or "}" in rest:
        raise ValueError(f"{name[:80]!r}: an image-sequence name needs exactly one frame "
                         "field (%04d, %d, {} or {:04d}) and no other '%' or braces")
    m = fields[0]
    digits = m.group(2) or m.group(4) or "0"
    return name[:m.start()], int(digits), name[m.end():]


def open_video(path, size: tuple[int, int], fps: float):
    """A writer for ``path``: :class:`VideoWriter` (.mp4, .webm, .gif) or
    :class:`SequenceWriter` (a folder or a %04d pattern)."""
    kind = video_kind(path)
    if kind == "video":
        return VideoWriter(path, size, fps)
    if kind == "sequence":
        return SequenceWriter(path, size, fps)
    raise ValueError(f"{path}: a still image, not a video or an image sequence")
