"""Small bar charts as inline SVG, rendered on the server (no script, no library): the operator's
dashboard plots. Every label is XML-escaped."""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape


def bar_chart(points: Sequence[tuple[str, int | float]], *, title: str, width: int = 640, height: int = 180,
              every: int = 1) -> str:
    """A bar per (label, value); every ``every``-th label is written under its bar."""
    pad_l, pad_b, pad_t = 36, 28, 22
    inner_w, inner_h = width - pad_l - 8, height - pad_b - pad_t
    top = max((v for _, v in points), default=0) or 1
    n = max(1, len(points))
    bw = inner_w / n
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" '
             f'aria-label="{escape(title, {chr(34): "&quot;"})}" class="chart">',
             f'<text x="{pad_l}" y="14" font-size="12">{escape(title)}</text>',
             f'<text x="{pad_l - 4}" y="{pad_t + 8}" font-size="10" text-anchor="end">{top:g}</text>',
             f'<line x1="{pad_l}" y1="{pad_t + inner_h}" x2="{width - 8}" y2="{pad_t + inner_h}" stroke="#888"/>']
    for i, (label, value) in enumerate(points):
        h = inner_h * (value / top)
        x = pad_l + i * bw
        parts.append(f'<rect x="{x + 1:.1f}" y="{pad_t + inner_h - h:.1f}" width="{max(1.0, bw - 2):.1f}" '
                     f'height="{h:.1f}" fill="#3b6ea5"><title>{escape(label)}: {value:g}</title></rect>')
        if i % every == 0:
            parts.append(f'<text x="{x + bw / 2:.1f}" y="{height - 10}" font-size="9" '
                         f'text-anchor="middle">{escape(label)}</text>')
    parts.append("</svg>")
    return "".join(parts)


__all__ = ["bar_chart"]
