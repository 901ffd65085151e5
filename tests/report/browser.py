"""Headless Chromium for the report test (Debian's chromium, run as root without its sandbox): the DOM of
a page after its scripts ran, a screenshot, and the pixels of a PNG (standard library only)."""
import shutil
import struct
import subprocess
import tempfile
import zlib
from pathlib import Path

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]
TIMEOUT_S = 180


def chromium():
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name) or (f"/usr/bin/{name}" if Path(f"/usr/bin/{name}").exists() else None)
        if path:
            return path
    return None


def run(args, window):
    """Runs Chromium on `args` with a fresh profile; returns its stdout."""
    with tempfile.TemporaryDirectory(prefix="acme-chromium-") as profile:
        cmd = [chromium()] + CHROMIUM_FLAGS + [f"--user-data-dir={profile}", f"--window-size={window}"] + args
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT_S)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {proc.returncode}\n{proc.stderr[-3000:]}")
    return proc.stdout


def dump_dom(page, window="1280,1000"):
    return run(["--dump-dom", Path(page).resolve().as_uri()], window)


def screenshot(page, png, window="1280,2400"):
    run([f"--screenshot={png}", Path(page).resolve().as_uri()], window)


def _unfilter(kind, line, prior, bpp):
    out = bytearray(line)
    for i in range(len(out)):
        left = out[i - bpp] if i >= bpp else 0
        up = prior[i]
        upper_left = prior[i - bpp] if i >= bpp else 0
        if kind == 1:
            out[i] = (out[i] + left) & 0xFF
        elif kind == 2:
            out[i] = (out[i] + up) & 0xFF
        elif kind == 3:
            out[i] = (out[i] + (left + up) // 2) & 0xFF
        elif kind == 4:
            p = left + up - upper_left
            pa, pb, pc = abs(p - left), abs(p - up), abs(p - upper_left)
            out[i] = (out[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else upper_left)) & 0xFF
    return out


def read_png(path):
    """(width, height, rows of (r, g, b) tuples) of an 8-bit RGB or RGBA PNG without interlacing."""
    data = Path(path).read_bytes()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    pos, chunks, header = 8, [], None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            chunks.append(body)
        pos += 12 + length
    width, height, depth, color_type, _, _, interlace = header
    if depth != 8 or color_type not in (2, 6) or interlace:
        raise ValueError(f"{path}: PNG depth {depth}, colour type {color_type}, interlace {interlace} not read here")
    bpp = 3 if color_type == 2 else 4
    raw = zlib.decompress(b"".join(chunks))
    stride = width * bpp
    rows, prior = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        line = _unfilter(raw[start], raw[start + 1:start + 1 + stride], prior, bpp)
        rows.append([tuple(line[x:x + 3]) for x in range(0, stride, bpp)])
        prior = line
    return width, height, rows
