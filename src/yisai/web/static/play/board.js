// Go board positions for the client: replay the server's move list and show captures.
// The server is the referee (legality, ko, the count); this only draws what it accepted.

export const LETTERS = "ABCDEFGHJKLMNOPQRST";

/** "D4" → [x, y] with y = 0 at the top (Shudan's vertices). */
export function vertexOf(point, size) {
  const col = LETTERS.indexOf(point[0].toUpperCase());
  const row = parseInt(point.slice(1), 10);
  return [col, size - row];
}

/** [x, y] → "D4". */
export function pointOf([x, y], size) {
  return LETTERS[x] + String(size - y);
}

export function emptyBoard(size) {
  return Array.from({ length: size }, () => Array(size).fill(0));
}

function neighbours([x, y], size) {
  return [[x - 1, y], [x + 1, y], [x, y - 1], [x, y + 1]].filter(
    ([a, b]) => a >= 0 && b >= 0 && a < size && b < size);
}

/** The chain through v and whether it has a liberty. */
export function chainAt(board, v) {
  const size = board.length;
  const sign = board[v[1]][v[0]];
  const seen = new Set([v.join(",")]);
  const stack = [v];
  const stones = [];
  let free = false;
  while (stack.length) {
    const cur = stack.pop();
    stones.push(cur);
    for (const n of neighbours(cur, size)) {
      const s = board[n[1]][n[0]];
      if (s === 0) free = true;
      else if (s === sign && !seen.has(n.join(","))) {
        seen.add(n.join(","));
        stack.push(n);
      }
    }
  }
  return { stones, free };
}

/** Place a stone (1 black, -1 white) and remove the opponent's chains left without liberties. */
export function play(board, sign, v) {
  const next = board.map((row) => row.slice());
  next[v[1]][v[0]] = sign;
  let captured = 0;
  for (const n of neighbours(v, next.length)) {
    if (next[n[1]][n[0]] === -sign) {
      const c = chainAt(next, n);
      if (!c.free) {
        for (const [a, b] of c.stones) next[b][a] = 0;
        captured += c.stones.length;
      }
    }
  }
  return { board: next, captured };
}

/** The position after the accepted actions (moves and passes; scoring marks are not moves). */
export function replay(size, moves) {
  let board = emptyBoard(size);
  let last = null;
  const prisoners = { B: 0, W: 0 };
  for (const m of moves) {
    if (m.kind === "move") {
      const v = vertexOf(m.point, size);
      const r = play(board, m.color === "B" ? 1 : -1, v);
      board = r.board;
      prisoners[m.color] += r.captured;
      last = v;
    } else if (m.kind === "pass") {
      last = null;
    }
  }
  return { board, last, prisoners };
}
