"""A matplotlib figure as SVG markup to put inside an HTML page: deterministic, and with its ids
prefixed so that several figures (each defining glyphs and clip paths) can share one document."""
import io
import re

import matplotlib

from plot_lib import style

_ID = re.compile(r'\bid="([^"]+)"')
_HREF = re.compile(r'href="#([^"]+)"')
_URL = re.compile(r"url\(#([^)]+)\)")
_METADATA = re.compile(r"<metadata>.*?</metadata>\s*", re.S)
_GROUP_ID = re.compile(r'<g id="[^"]*"')
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_INDENT = re.compile(r"\n[ \t]+")


def inline_svg(fig, uid):
    """The <svg> element of `fig` (no XML prologue), ids prefixed with `uid`, scaled to its container."""
    buffer = io.StringIO()
    # Text as <text> (the page names DejaVu Sans, matplotlib's font, first): a tenth of the size of glyph paths.
    with matplotlib.rc_context({"svg.hashsalt": uid, "svg.fonttype": "none"}):
        fig.savefig(buffer, format="svg", bbox_inches="tight", metadata=style.file_metadata("svg"))
    text = buffer.getvalue()
    text = text[text.index("<svg"):]
    text = _METADATA.sub("", text)
    text = _GROUP_ID.sub("<g", text)  # groups are never referenced; only defs need their ids
    text = _COMMENT.sub("", text)
    text = _INDENT.sub("\n", text)
    text = _ID.sub(lambda m: f'id="{uid}-{m.group(1)}"', text)
    text = _HREF.sub(lambda m: f'href="#{uid}-{m.group(1)}"', text)
    text = _URL.sub(lambda m: f"url(#{uid}-{m.group(1)})", text)
    width = re.search(r'<svg[^>]*\bwidth="([0-9.]+)pt"', text)
    max_px = round(float(width.group(1)) * 4 / 3) if width else None
    style_attr = f' style="max-width: {max_px}px"' if max_px else ""
    text = re.sub(r'(<svg[^>]*?)\swidth="[^"]*"\s+height="[^"]*"', r'\1 width="100%"' + style_attr, text, count=1)
    return text
