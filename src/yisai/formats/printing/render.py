"""Typesetting with typst (the PyPI package, no external binary).

The template files live in this package (``templates/*.typ``, read with importlib.resources)
and the document's data goes next to them as ``data.json``: names are never spliced into typst
markup, so a name with ``#`` or ``]`` in it prints as written.

Fonts: Debian's Noto CJK (fonts-noto-cjk) first; HanaMin A/B (fonts-hanazono) catch
characters of the CJK extension planes Noto lacks (e.g. U+2A6A5 𪚥). ``FONT_DIRS`` are read
directly (indexed once per process) and system fonts skipped, so a PDF does not depend on
what else is installed.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from yisai.formats.printing.layout import table_layout
from yisai.formats.printing.model import Document
from yisai.i18n import Text

FONT_DIRS = (
    Path("/usr/share/fonts/opentype/noto"),  # fonts-noto-cjk, fonts-noto-cjk-extra
    Path("/usr/share/fonts/truetype/hanazono"),  # fonts-hanazono: extension planes B–F
)
TEMPLATE_FILES = ("common.typ", "report.typ", "cards.typ", "slips.typ", "certificates.typ")
BACKGROUND_TYPES = (".png", ".jpg", ".jpeg", ".svg")


class PrintError(ValueError):
    """A document cannot be typeset; the message (both languages) says what to fix."""

    def __init__(self, text: Text) -> None:
        super().__init__(text.zh)
        self.text = text

    def __str__(self) -> str:
        return self.text.render()


def template_text(name: str) -> str:
    """A template file shipped in the package."""
    return resources.files("yisai.formats.printing").joinpath("templates", name).read_text("utf-8")


def available_font_dirs(dirs: Sequence[Path] = FONT_DIRS) -> list[Path]:
    return [d for d in dirs if d.is_dir()]


@lru_cache(maxsize=4)
def _fonts(dirs: tuple[str, ...]) -> Any:
    """The fonts of ``dirs`` (typst's own embedded fonts too; system fonts only when none of the
    directories exists), indexed once per process: a server prints many documents."""
    import typst

    return typst.Fonts(include_system_fonts=not dirs, include_embedded_fonts=True,
                       font_paths=list(dirs))


def render_pdf(doc: Document, *, background: Path | None = None,
               font_dirs: Sequence[Path] | None = None) -> bytes:
    """The document as PDF bytes."""
    out = _compile(doc, background, font_dirs, fmt="pdf", ppi=None)
    assert isinstance(out, bytes)
    return out


def render_png(doc: Document, *, width_px: int = 600, background: Path | None = None,
               font_dirs: Sequence[Path] | None = None) -> list[bytes]:
    """Every page as a PNG ``width_px`` pixels wide (thumbnails for the docs)."""
    width_in = (297 if doc.landscape or doc.template == "certificates" else 210) / 25.4
    out = _compile(doc, background, font_dirs, fmt="png", ppi=width_px / width_in)
    return out if isinstance(out, list) else [out]


def _compile(doc: Document, background: Path | None, font_dirs: Sequence[Path] | None,
             fmt: Literal["pdf", "png"], ppi: float | None) -> bytes | list[bytes]:
    import typst

    dirs = available_font_dirs(FONT_DIRS if font_dirs is None else font_dirs)
    data = doc.data()
    for section, sdata in zip(doc.sections, data["sections"], strict=True):
        for table, tdata in zip(section.tables, sdata["tables"], strict=True):
            lay = table_layout(table, doc.landscape)
            tdata["layout"] = {"size": lay.size, "widths": list(lay.widths)}
    with tempfile.TemporaryDirectory(prefix="yisai-print-") as tmp:
        root = Path(tmp)
        for name in TEMPLATE_FILES:
            (root / name).write_text(template_text(name), encoding="utf-8")
        if background is not None:
            data["meta"] = {**data["meta"], "background": _copy_background(background, root)}
        (root / "data.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        try:
            return typst.compile(  # type: ignore[no-any-return, unused-ignore]
                str(root / f"{doc.template}.typ"),
                root=str(root),
                font_paths=_fonts(tuple(str(d) for d in dirs)),
                format=fmt,
                ppi=ppi,
            )
        except Exception as exc:  # typst raises its own error types with the template's message
            raise PrintError(Text(f"排版失败 ({doc.kind}): {exc}",
                                f"typesetting failed ({doc.kind}): {exc}")) from exc


def _copy_background(path: Path, root: Path) -> str:
    if path.suffix.lower() not in BACKGROUND_TYPES:
        raise PrintError(Text(
            f"背景图片须为 {'/'.join(BACKGROUND_TYPES)} 文件: {path}",
            f"the background must be a {'/'.join(BACKGROUND_TYPES)} file: {path}",
        ))
    if not path.is_file():
        raise PrintError(Text(f"找不到背景图片: {path}", f"background image not found: {path}"))
    name = "background" + path.suffix.lower()
    try:
        shutil.copyfile(path, root / name)
    except OSError as exc:
        raise PrintError(Text(f"无法读取背景图片 {path}: {exc.strerror}",
                            f"cannot read background image {path}: {exc.strerror}")) from exc
    return name
