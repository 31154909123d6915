"""Reading a QR code back, as a pupil's tablet would: zxing-cpp decodes pixels.

Two kinds of pixels: a screenshot (PNG bytes, e.g. Chromium's rendering of
the teacher's page), and the server's own SVG markup drawn here module by
module.  The SVG reader understands the path commands segno writes (``M``,
``m``, ``h``: one dark line per run of modules in a row) and refuses any
other, so a change of segno's markup fails loudly instead of decoding
something else.
"""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET

import numpy as np
import zxingcpp
from PIL import Image

#: Light modules around the code (the QR standard asks for four).
QUIET_ZONE = 4
#: Pixels per module when the SVG is drawn here.
MODULE_PX = 6


def decode(image: Image.Image | np.ndarray) -> list[str]:
    """The text of every QR code found in ``image`` (grayscale or RGB)."""
    return [found.text for found in zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode)]


def decode_png(data: bytes) -> list[str]:
    """The text of every QR code in a PNG (a Playwright screenshot)."""
    return decode(Image.open(io.BytesIO(data)).convert("L"))


def svg_modules(markup: str) -> np.ndarray:
    """The dark modules of segno's inline SVG as a boolean grid (rows by columns)."""
    root = ET.fromstring(markup)
    group = root.find("g")
    scale = 1.0
    if group is not None and (found := re.fullmatch(r"scale\(([\d.]+)\)", group.get("transform", ""))):
        scale = float(found.group(1))
    size = round(float(root.get("width", "0")) / scale)
    if size != round(float(root.get("height", "0")) / scale) or size < 21:
        raise ValueError(f"not a square QR code of at least 21 modules: {root.attrib}")
    grid = np.zeros((size, size), dtype=bool)
    for path in root.iter("path"):
        if path.get("stroke") is None:  # the filled light background
            continue
        x = y = 0.0
        for command, numbers in re.findall(r"([A-Za-z])([^A-Za-z]*)", path.get("d", "")):
            values = [float(v) for v in numbers.replace(",", " ").split()]
            if command == "M":
                x, y = values
            elif command == "m":
                x, y = x + values[0], y + values[1]
            elif command == "h":
                row, start, end = int(y), round(x), round(x + values[0])
                grid[row, min(start, end) : max(start, end)] = True
                x += values[0]
            else:
                raise ValueError(f"path command {command!r}: expected only M, m and h (segno's lines)")
    return grid


def svg_image(markup: str) -> np.ndarray:
    """segno's inline SVG drawn as a grayscale image (dark 0, light 255) with a quiet zone."""
    grid = np.pad(svg_modules(markup), QUIET_ZONE, constant_values=False)
    pixels = np.kron(grid, np.ones((MODULE_PX, MODULE_PX), dtype=bool))
    return np.where(pixels, 0, 255).astype(np.uint8)
