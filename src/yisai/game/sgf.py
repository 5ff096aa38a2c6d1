"""SGF FF[4] game records: read (any charset, variations kept), check, and write.

Why decode the whole file before parsing: in GBK/GB18030 the second byte of a Chinese character
may be ``]`` or ``\\``, so cutting property values out of the raw bytes can split a character.
The file is decoded first (UTF-8, then the charset CA[] names, then GB18030, then the SGF
default ISO-8859-1 when no CA[] is given), re-encoded as UTF-8, and only then handed to
sgfmill's parser. Errors name the byte offset in the *original* file, or the move number.

Move numbers count B[]/W[] properties along the main line from 1; setup (AB/AW/AE) may appear
in any node and is applied in order, as GNU Go's test positions need.

Limits (a game record, even a long review with variations, is far below all of them; a file
above one is refused before parsing, in well under a second): ``MAX_SGF_BYTES`` 20 MB,
``MAX_NODES`` 100,000 nodes, ``MAX_VALUES`` 500,000 property values, ``MAX_DEPTH`` 10,000
nested variations; KM lies within ±``MAX_KOMI`` (1000) points. The tree is built and walked iteratively, so depth never meets Python's
recursion limit.

SZ is read as FF[4] defines it: one value, a number or number:number (ASCII digits, no spaces,
1 to 52); the board itself must be square, 2 to 25. Any other SZ is refused at its byte offset.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from sgfmill import sgf_grammar

from yisai.game.board import BLACK, PASS, WHITE, Board, IllegalMove, Reason, color_letter
from yisai.i18n import tr
from yisai.record.text import shown
from yisai.regulation.rules import PlayRules, TimeControl

SIMPLE_KO_RULESETS = ("japanese", "korean", "jp", "ko", "kor", "jpn")
SUICIDE_RULESETS = ("nz", "new zealand", "tromp-taylor", "tromp taylor", "tt")
RESULT_RE = re.compile(
    r"^(?:(?P<side>[BW])\+(?P<how>R|Resign|T|Time|F|Forfeit|\d+(?:\.\d+)?)?"
    r"|(?P<draw>0|Draw|Jigo)|(?P<void>Void)|(?P<unknown>\?))$",
    re.IGNORECASE,
)
MAX_SGF_BYTES = 20 * 1024 * 1024
MAX_NODES = 100_000
MAX_VALUES = 500_000
MAX_DEPTH = 10_000
MAX_KOMI = 1000.0  # points; a 25x25 board has 625 points, so anything beyond is not a komi
SIZE_RE = re.compile(r"\+?([0-9]{1,6})(?::\+?([0-9]{1,6}))?", re.ASCII)  # FF[4]: Number or Number:Number
OVERTIME_RE = re.compile(r"^\s*(\d+)\s*[x×*]\s*(\d+(?:\.\d+)?)\s*(?:byo-?yomi)?\s*$", re.IGNORECASE)


class SgfError(ValueError):
    """A malformed record: the message names the byte offset or the move number."""

    def __init__(self, message: str, *, offset: int | None = None, move: int | None = None):
        self.offset = offset
        self.move = move
        where = ""
        if offset is not None:
            where = tr(f"字节 {offset}: ", f"byte {offset}: ")
        elif move is not None:
            where = tr(f"第{move}手: ", f"move {move}: ")
        super().__init__(where + message)


class IllegalRecord(SgfError):
    """A well-formed record with an illegal move: ``move N (B q16): illegal: superko``."""

    def __init__(self, move: int, color: int, coord: str, reason: Reason):
        self.color = color
        self.coord = coord
        self.reason = reason
        ValueError.__init__(
            self, tr(f"第{move}手 ({color_letter(color)} {coord}): 不合法: {reason.text}",
                     f"move {move} ({color_letter(color)} {coord}): illegal: {reason.text}")
        )
        self.offset = None
        self.move = move


# ----- the tree -------------------------------------------------------------------------
@dataclass(eq=False)
class SgfNode:
    """One node: property identifier -> list of (unescaped) text values, and its variations."""

    props: dict[str, list[str]] = field(default_factory=dict)
    children: list[SgfNode] = field(default_factory=list)

    def get(self, ident: str) -> str | None:
        values = self.props.get(ident)
        return values[0] if values else None

    def set(self, ident: str, *values: str) -> None:
        self.props[ident] = [str(v) for v in values]


@dataclass(frozen=True, slots=True)
class SgfMove:
    number: int  # 1-based along the main line
    color: int
    point: tuple[int, int] | None  # (x, y) from the top-left, None for a pass
    time_left: float | None = None  # BL / WL
    periods_left: int | None = None  # OB / OW (byo-yomi periods left)


@dataclass(eq=False)
class SgfRecord:
    """A game record; ``root`` holds the whole tree (variations included)."""

    root: SgfNode
    encoding: str = "UTF-8"  # what the file was decoded from

    # -- game information (root properties) --
    @property
    def size(self) -> int:
        return _size_of(self.root)

    @property
    def komi(self) -> float | None:
        km = self.root.get("KM")
        if km is None:
            return None
        value = _number(km, "KM")
        if not abs(value) <= MAX_KOMI:
            raise SgfError(
                tr(
                    f"KM[{shown(km)}] 超出范围: 贴目须在 -{MAX_KOMI:g} 到 {MAX_KOMI:g} 目之间",
                    f"KM[{shown(km)}] out of range: komi lies between -{MAX_KOMI:g} and {MAX_KOMI:g}",
                )
            )
        return value

    @property
    def rules(self) -> str:
        return self.root.get("RU") or ""

    @property
    def result(self) -> str:
        return self.root.get("RE") or ""

    def info(self, ident: str) -> str:
        """Any root text property (PB, PW, BR, WR, DT, EV, RO, OT, ...), '' if absent."""
        return self.root.get(ident) or ""

    @property
    def main_time(self) -> float | None:
        """TM in seconds; None when absent or in an old free-text form (see ``info("TM")``)."""
        tm = self.root.get("TM")
        try:
            return None if tm is None else _number(tm, "TM")
        except SgfError:
            return None

    def main_line(self) -> list[SgfNode]:
        nodes = [self.root]
        while nodes[-1].children:
            nodes.append(nodes[-1].children[0])
        return nodes

    @property
    def moves(self) -> list[SgfMove]:
        out: list[SgfMove] = []
        size = self.size
        for node in self.main_line():
            move = _node_move(node, size, len(out) + 1)
            if move is not None:
                out.append(move)
        return out

    def play_rules(self) -> PlayRules:
        """The rules to replay under, from RU/SZ/KM (Chinese and unknown: positional superko)."""
        ru = self.rules.strip().lower()
        komi = self.komi
        return PlayRules(
            board_size=self.size,
            komi=7.5 if komi is None else max(-50.0, min(50.0, komi)),
            superko="simple_ko" if ru in SIMPLE_KO_RULESETS else "positional",
            suicide_allowed=ru in SUICIDE_RULESETS,
        )

    # -- building --
    @classmethod
    def create(
        cls,
        rules: PlayRules | None = None,
        *,
        black: str = "",
        white: str = "",
        black_rank: str = "",
        white_rank: str = "",
        date: str = "",
        event: str = "",
        round: str = "",
        time_control: TimeControl | None = None,
        handicap: list[tuple[int, int]] | None = None,
        result: str = "",
    ) -> SgfRecord:
        rules = rules or PlayRules()
        root = SgfNode()
        root.set("FF", "4")
        root.set("GM", "1")
        root.set("CA", "UTF-8")
        root.set("AP", "yisai")
        root.set("SZ", str(rules.board_size))
        root.set("RU", "Chinese")
        root.set("KM", _real(rules.komi))
        for ident, value in (
            ("PB", black),
            ("PW", white),
            ("BR", black_rank),
            ("WR", white_rank),
            ("DT", date),
            ("EV", event),
            ("RO", round),
        ):
            if value:
                root.set(ident, value)
        if time_control is not None:
            root.set("TM", _real(time_control.main_minutes * 60))
            if time_control.byoyomi_periods and time_control.byoyomi_seconds:
                root.set("OT", overtime_text(time_control))
        if handicap:
            root.set("HA", str(len(handicap)))
            root.set("AB", *(_sgf_point(p) for p in handicap))
        if result:
            root.set("RE", check_result(result))
        return cls(root)

    def append_move(
        self,
        color: int,
        point: tuple[int, int] | None,
        *,
        time_left: float | None = None,
        periods_left: int | None = None,
    ) -> SgfNode:
        """Add a move at the end of the main line (with BL/WL and OB/OW when given)."""
        node = SgfNode()
        letter = color_letter(color)
        node.set(letter, "" if point is None else _sgf_point(point))
        if time_left is not None:
            node.set(f"{letter}L", _real(round(time_left, 3)))
        if periods_left is not None:
            node.set(f"O{letter}", str(periods_left))
        self.main_line()[-1].children.append(node)
        return node

    def set_result(self, result: str) -> None:
        self.root.set("RE", check_result(result))

    def to_bytes(self) -> bytes:
        """Serialise as UTF-8 FF[4] (CA[UTF-8] is set whatever the source charset was)."""
        self.root.set("FF", "4")
        self.root.set("CA", "UTF-8")
        tree = _to_coarse(self.root)
        return sgf_grammar.serialise_game_tree(tree, wrap=79)


# ----- reading --------------------------------------------------------------------------
def decodings(data: bytes) -> list[tuple[str, str]]:
    """Every plausible (text, charset) reading, most likely first.

    Order: UTF-8; the charset CA[] declares when it is not UTF-8 or GB; GB18030 (a superset of
    GB2312 and GBK, tried whatever CA[] says); ISO-8859-1 (the SGF default) only without CA[].
    SgfError with the offset of the first undecodable byte when nothing decodes.
    """
    bom = 3 if data.startswith(b"\xef\xbb\xbf") else 0
    data = data[bom:]
    declared = _declared_charset(data)
    tried = ["utf-8"]
    if declared and _codec(declared) not in ("utf-8", "gb18030"):
        tried.append(declared)
    tried.append("gb18030")
    if not declared:
        tried.append("iso-8859-1")
    found: list[tuple[str, str]] = []
    first_error: UnicodeDecodeError | None = None
    for name in tried:
        try:
            found.append((data.decode(_codec(name)), _display_charset(name)))
        except UnicodeDecodeError as exc:
            first_error = first_error or exc
        except (LookupError, ValueError):  # CA[] names no codec, or a bizarre one
            continue
    names = [name for _, name in found]
    if "GB18030" in names and "ISO-8859-1" in names:
        gb = found[names.index("GB18030")][0]
        # A GB reading that swallows "]" or "\\" into a character, of a file that has no C1
        # control bytes (0x80-0x9F never occur in ISO-8859-1 text), is really ISO-8859-1:
        # "é]" is one GBK character but an accented name in a European record.
        swallowed = gb.count("]") + gb.count("\\") < data.count(b"]") + data.count(b"\\")
        if swallowed and not any(0x80 <= c <= 0x9F for c in data):
            found.insert(names.index("GB18030"), found.pop(names.index("ISO-8859-1")))
    if found:
        return found
    offset = (first_error.start if first_error else 0) + bom
    raise SgfError(
        tr(
            f"无法识别的字符编码 (CA[{declared}]); 请另存为 UTF-8 或 GB18030",
            f"unreadable character set (CA[{declared}]); save the file as UTF-8 or GB18030",
        ),
        offset=offset,
    )


def read_sgf(data: bytes) -> SgfRecord:
    """Parse bytes into a record; SgfError (with a byte offset or move number) if malformed.

    A reading that decodes but does not parse (an ISO-8859-1 ``é]`` looks like one GBK
    character) gives way to the next charset; the error reported is the first reading's.
    Files over the size, node, value or nesting limits are refused before parsing.
    """
    if len(data) > MAX_SGF_BYTES:
        raise SgfError(
            tr(
                f"文件有 {len(data)} 字节, 超过上限 {MAX_SGF_BYTES} 字节 (20 MB)",
                f"the file has {len(data)} bytes, over the limit of {MAX_SGF_BYTES} (20 MB)",
            )
        )
    bom = 3 if data.startswith(b"\xef\xbb\xbf") else 0
    first: SgfError | None = None
    for text, charset in decodings(data):
        utf8 = text.encode("utf-8")

        def original(offset: int, utf8: bytes = utf8, charset: str = charset) -> int:
            before = utf8[:offset].decode("utf-8", errors="ignore")
            return len(before.encode(_codec(charset), errors="replace")) + bom

        _check_limits(utf8, original)
        try:
            coarse = sgf_grammar.parse_sgf_game(utf8)
        except ValueError:
            if first is None:
                offset, message = _locate_syntax_error(utf8)
                first = SgfError(message, offset=original(offset))
            continue
        record = SgfRecord(_from_coarse(coarse), charset)
        for ident in ("SZ", "KM"):
            try:
                _ = record.size if ident == "SZ" else record.komi
            except SgfError as exc:
                at = _root_property_offset(utf8, ident)
                raise SgfError(str(exc), offset=None if at is None else original(at)) from None
        _validate(record)
        return record
    assert first is not None
    raise first


_LIMIT_TOKEN_RE = re.compile(rb"(\[[^\\\]]*(?:\\.[^\\\]]*)*\])|(\()|(\))|(;)", re.DOTALL)


def _check_limits(utf8: bytes, original: Callable[[int], int]) -> None:
    """Refuse a file over MAX_DEPTH / MAX_NODES / MAX_VALUES before sgfmill parses it, at the byte
    where the limit is passed. Ordinary files are let through on a byte count alone; otherwise
    the walk stops at the first limit passed, so it never costs more than about a second."""
    if (
        utf8.count(b"(") <= MAX_DEPTH
        and utf8.count(b";") <= MAX_NODES
        and utf8.count(b"[") <= MAX_VALUES
    ):
        return  # upper bounds (they also count inside values) already within the limits
    depth = nodes = values = 0
    for m in _LIMIT_TOKEN_RE.finditer(utf8):
        kind = m.lastindex
        if kind == 1:
            values += 1
            if values > MAX_VALUES:
                message = tr(
                    f"属性值超过 {MAX_VALUES} 个 (上限); 请把棋谱分成几个文件",
                    f"more than {MAX_VALUES} property values (the limit); split the record",
                )
                break
        elif kind == 2:
            depth += 1
            if depth > MAX_DEPTH:
                message = tr(
                    f"变化图嵌套超过 {MAX_DEPTH} 层 (允许的最大深度)",
                    f"variations nested deeper than {MAX_DEPTH} levels (the limit)",
                )
                break
        elif kind == 3:
            depth -= 1
        else:
            nodes += 1
            if nodes > MAX_NODES:
                message = tr(
                    f"节点超过 {MAX_NODES} 个 (上限); 请把棋谱分成几个文件",
                    f"more than {MAX_NODES} nodes (the limit); split the record",
                )
                break
    else:
        return
    raise SgfError(message, offset=original(m.start()))


def _root_property_offset(utf8: bytes, ident: str) -> int | None:
    """Byte offset of the root node's ``ident`` property (for errors in a root value)."""
    m = _START_RE.search(utf8)
    if not m:
        return None
    i = m.end()
    while True:
        t = _TOKEN_RE.match(utf8, i)
        if not t or t.lastgroup == "D":
            return None
        if t.lastgroup == "I" and t.group("I") == ident.encode():
            return t.start("I")
        i = t.end()


def replay(record: SgfRecord, rules: PlayRules | None = None) -> Board:
    """Play the main line on a board; IllegalRecord at the first illegal move."""
    rules = rules or record.play_rules()
    if rules.board_size != record.size:
        rules = rules.model_copy(update={"board_size": record.size})
    board = Board.from_rules(rules)
    number = 0
    for node in record.main_line():
        _apply_setup(board, node)
        move = _node_move(node, board.size, number + 1)
        if move is None:
            continue
        number = move.number
        if move.point is None:
            board.pass_move(move.color)
            continue
        p = board.point(*move.point)
        try:
            board.play(move.color, p)
        except IllegalMove as exc:
            raise IllegalRecord(number, move.color, exc.coord, exc.reason) from None
    return board


def check_result(value: str) -> str:
    """Validate an RE value (B+R, W+T, B+F, B+2.5, 0, Draw, Void, ?); returns it unchanged."""
    if not RESULT_RE.match(value.strip()):
        raise SgfError(
            tr(
                f"RE[{value}] 不是有效的结果 (例如 B+R, W+T, B+F, B+2.5, 0, Void)",
                f"RE[{value}] is not a result (e.g. B+R, W+T, B+F, B+2.5, 0, Void)",
            )
        )
    return value.strip()


def overtime_text(tc: TimeControl) -> str:
    """The OT[] text for byo-yomi: ``3x20 byo-yomi``."""
    return f"{tc.byoyomi_periods}x{tc.byoyomi_seconds} byo-yomi"


def parse_overtime(text: str) -> tuple[int, float] | None:
    """``3x20 byo-yomi`` -> (3, 20.0); None when OT describes something else."""
    m = OVERTIME_RE.match(text)
    return (int(m.group(1)), float(m.group(2))) if m else None


# ----- internals ------------------------------------------------------------------------
_CA_RE = re.compile(rb"CA\s*\[([^\]]*)\]")
_TOKEN_RE = re.compile(
    rb"\s*(?:\[(?P<V>[^\\\]]*(?:\\.[^\\\]]*)*)\]|(?P<I>[A-Za-z]{1,64})|(?P<D>[;()]))", re.DOTALL
)
_START_RE = re.compile(rb"\(\s*;")


def _codec(name: str) -> str:
    n = name.strip().lower().replace("_", "-")
    if n in ("utf8", "utf-8"):
        return "utf-8"
    if n in ("gb2312", "gbk", "gb18030", "euc-cn", "cp936", "gb-2312"):
        return "gb18030"  # a superset of both: decodes every GB2312/GBK file
    return n


def _display_charset(name: str) -> str:
    return {"utf-8": "UTF-8", "gb18030": "GB18030", "iso-8859-1": "ISO-8859-1"}.get(
        _codec(name), name
    )


def _declared_charset(data: bytes) -> str:
    m = _CA_RE.search(data)
    if not m:
        return ""
    return m.group(1).decode("ascii", errors="replace").strip()


def _locate_syntax_error(bb: bytes) -> tuple[int, str]:
    """Re-run the SGF grammar with positions to say where sgfmill's parser gave up."""
    m = _START_RE.search(bb)
    if not m:
        return 0, tr("没有找到 SGF 数据 (应以 '(;' 开始)", "no SGF data found (expected '(;')")
    i = m.start()
    depth = 0
    in_node = False
    seq_len: list[int] = []
    prop_open: tuple[int, int] | None = None  # (offset, values so far)
    while True:
        t = _TOKEN_RE.match(bb, i)
        if not t:
            j = i
            while j < len(bb) and bb[j : j + 1].isspace():
                j += 1
            if bb[j : j + 1] == b"[":
                return j, tr("属性值缺少结尾的 ']'", "property value without its closing ']'")
            if j >= len(bb):
                return j, tr(
                    "SGF 数据意外结束 (缺少 ']' 或 ')')",
                    "unexpected end of SGF data (missing ']' or ')')",
                )
            return j, tr("无法解析的内容", "unexpected data")
        kind = t.lastgroup
        start = t.start(t.lastindex or 0) - (1 if kind == "V" else 0)  # a value starts at '['

        token = t.group(t.lastindex or 0)
        i = t.end()
        if kind != "V" and prop_open is not None:
            if prop_open[1] == 0:
                return prop_open[0], tr("属性没有值", "property with no values")
            prop_open = None
        if kind == "V":
            if prop_open is None:
                return start, tr("值前没有属性名", "value without a property name")
            prop_open = (prop_open[0], prop_open[1] + 1)
        elif kind == "I":
            if not in_node:
                return start, tr(
                    "属性不在节点内 (缺少 ';')", "property outside a node (missing ';')"
                )
            prop_open = (start, 0)
        elif token == b";":
            if not seq_len:
                return start, tr("意外的节点", "unexpected node")
            seq_len[-1] += 1
            in_node = True
        elif token == b"(":
            if seq_len and seq_len[-1] == 0 and depth > 0:
                return start, tr("空的变化 (缺少 ';')", "empty variation (missing ';')")
            depth += 1
            seq_len.append(0)
            in_node = False
        else:
            if seq_len and seq_len[-1] == 0:
                return start, tr("空的变化 (缺少 ';')", "empty variation (missing ';')")
            depth -= 1
            seq_len.pop()
            in_node = False
            if depth == 0:
                return start, tr("SGF 语法错误", "SGF syntax error")


def _from_coarse(tree: sgf_grammar.Coarse_game_tree) -> SgfNode:
    """Coarse tree (sequences + variations) -> node tree; iterative, so deep nesting is safe."""

    def node_of(props: dict[str, list[bytes]]) -> SgfNode:
        return SgfNode(
            {k: [sgf_grammar.text_value(v).decode("utf-8") for v in vs] for k, vs in props.items()}
        )

    root: SgfNode | None = None
    stack: list[tuple[sgf_grammar.Coarse_game_tree, SgfNode | None]] = [(tree, None)]
    while stack:
        t, parent = stack.pop()
        first = node_of(t.sequence[0])
        if parent is None:
            root = first
        else:
            parent.children.append(first)
        last = first
        for props in t.sequence[1:]:
            nxt = node_of(props)
            last.children.append(nxt)
            last = nxt
        stack.extend((child, last) for child in reversed(t.children))
    assert root is not None
    return root


def _to_coarse(root: SgfNode) -> sgf_grammar.Coarse_game_tree:
    """Node tree -> coarse tree for sgfmill's serialiser (iterative, like the reader)."""

    def raw(node: SgfNode) -> dict[str, list[bytes]]:
        return {
            k: [sgf_grammar.escape_text(v.encode("utf-8")) for v in vs]
            for k, vs in node.props.items()
            if vs
        }

    top = sgf_grammar.Coarse_game_tree()
    stack = [(top, root)]
    while stack:
        tree, node = stack.pop()
        tree.sequence = [raw(node)]
        while len(node.children) == 1:
            node = node.children[0]
            tree.sequence.append(raw(node))
        for child in node.children:
            sub = sgf_grammar.Coarse_game_tree()
            tree.children.append(sub)
            stack.append((sub, child))
    return top


def _number(text: str, ident: str) -> float:
    try:
        value = float(text.strip())
    except ValueError:
        raise SgfError(
            tr(f"{ident}[{text}] 不是数字", f"{ident}[{text}] is not a number")
        ) from None
    if value != value or value in (float("inf"), float("-inf")):
        raise SgfError(tr(f"{ident}[{text}] 不是数字", f"{ident}[{text}] is not a number"))
    return value


def _real(value: float) -> str:
    text = f"{float(value):.3f}".rstrip("0").rstrip(".")
    return text or "0"


def _size_of(root: SgfNode) -> int:
    values = root.props.get("SZ")
    if values is None:
        return 19
    sz = values[0] if values else ""
    m = SIZE_RE.fullmatch(sz)
    if len(values) != 1 or m is None:
        shown_sz = "][".join(shown(v, 20) for v in values)
        raise SgfError(
            tr(
                f"SZ[{shown_sz}] 格式不对: 应为一个值, 数字 (如 SZ[19]) 或 列数:行数 (如 SZ[19:19]),"
                " 只用数字, 不带空格",
                f"SZ[{shown_sz}] is malformed: one value, a number (SZ[19]) or columns:rows"
                " (SZ[19:19]), digits only, no spaces",
            )
        )
    columns = int(m.group(1))
    rows = int(m.group(2)) if m.group(2) is not None else columns
    if not (1 <= columns <= 52 and 1 <= rows <= 52):
        raise SgfError(
            tr(
                f"SZ[{sz}] 超出 SGF 允许的范围 1 到 52",
                f"SZ[{sz}] is outside the range SGF allows, 1 to 52",
            )
        )
    if columns != rows or not 2 <= columns <= 25:
        raise SgfError(
            tr(
                f"SZ[{sz}] 无效: 棋盘须为 2 到 25 路的正方形",
                f"SZ[{sz}] invalid: the board must be square, 2 to 25",
            )
        )
    return columns


def _sgf_point(point: tuple[int, int]) -> str:
    x, y = point
    return chr(97 + x) + chr(97 + y)


def _parse_point(text: str, size: int, *, move: bool) -> tuple[int, int] | None:
    t = text.strip()
    if move and (t == "" or (t == "tt" and size <= 19)):
        return None
    if len(t) != 2 or not t.isascii() or not t.isalpha() or not t.islower():
        raise ValueError(t)
    x, y = ord(t[0]) - 97, ord(t[1]) - 97
    if not (0 <= x < size and 0 <= y < size):
        raise ValueError(t)
    return x, y


def _node_move(node: SgfNode, size: int, number: int) -> SgfMove | None:
    has_b, has_w = "B" in node.props, "W" in node.props
    if not (has_b or has_w):
        return None
    if has_b and has_w:
        raise SgfError(tr("同一节点中同时有 B 和 W", "B and W in the same node"), move=number)
    letter = "B" if has_b else "W"
    value = node.props[letter][0] if node.props[letter] else ""
    try:
        point = _parse_point(value, size, move=True)
    except ValueError:
        raise SgfError(
            tr(
                f"{letter}[{value}] 不是 {size} 路棋盘上的坐标",
                f"{letter}[{value}] is not a point on a {size}x{size} board",
            ),
            move=number,
        ) from None
    time_left = periods = None
    if node.get(f"{letter}L") is not None:
        time_left = _number(node.get(f"{letter}L") or "", f"{letter}L")
    ot = node.get(f"O{letter}")
    if ot is not None:
        if not ot.strip().lstrip("-").isdigit():
            raise SgfError(
                tr(f"O{letter}[{ot}] 不是整数", f"O{letter}[{ot}] is not an integer"), move=number
            )
        periods = int(ot)
    return SgfMove(number, BLACK if letter == "B" else WHITE, point, time_left, periods)


def _setup_points(node: SgfNode, ident: str, size: int) -> list[tuple[int, int]]:
    out = []
    for value in node.props.get(ident, []):
        try:
            if ":" in value:  # compressed rectangle "aa:cc"
                a, b = value.split(":", 1)
                pa = _parse_point(a, size, move=False)
                pb = _parse_point(b, size, move=False)
                assert pa is not None and pb is not None
                for x in range(min(pa[0], pb[0]), max(pa[0], pb[0]) + 1):
                    for y in range(min(pa[1], pb[1]), max(pa[1], pb[1]) + 1):
                        out.append((x, y))
            else:
                p = _parse_point(value, size, move=False)
                assert p is not None
                out.append(p)
        except (ValueError, AssertionError):
            raise SgfError(
                tr(
                    f"{ident}[{value}] 不是 {size} 路棋盘上的坐标",
                    f"{ident}[{value}] is not a point on a {size}x{size} board",
                )
            ) from None
    return out


def _apply_setup(board: Board, node: SgfNode) -> None:
    if not any(k in node.props for k in ("AB", "AW", "AE")):
        return
    size = board.size
    pts = {
        k: [board.point(x, y) for x, y in _setup_points(node, k, size)] for k in ("AB", "AW", "AE")
    }
    board.setup(black=pts["AB"], white=pts["AW"], empty=pts["AE"])
    pl = node.get("PL")
    if pl and pl.strip().upper() in ("B", "W"):
        board.to_move = BLACK if pl.strip().upper() == "B" else WHITE


def _validate(record: SgfRecord) -> None:
    """Interpret everything once so that later reads cannot fail."""
    size = record.size
    _ = record.komi
    number = 0
    for node in record.main_line():
        for ident in ("AB", "AW", "AE"):
            _setup_points(node, ident, size)
        move = _node_move(node, size, number + 1)
        if move is not None:
            number = move.number


__all__ = [
    "PASS",
    "IllegalRecord",
    "SgfError",
    "SgfMove",
    "SgfNode",
    "SgfRecord",
    "check_result",
    "decodings",
    "overtime_text",
    "parse_overtime",
    "read_sgf",
    "replay",
]
