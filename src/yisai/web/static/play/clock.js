// Clock display from the server's last clock state: the server is authoritative, the client
// only counts down the running side between messages (and never decides a flag).

/** One side's time now: ms since the server state was received, the regulation's byo-yomi. */
export function timeNow(c, running, elapsedMs, periodSeconds) {
  let main = c.main;
  let periods = c.periods;
  let left = c.period_left;
  let byo = c.byoyomi;
  if (running) {
    let e = elapsedMs / 1000;
    if (!byo) {
      if (e < main) return { main: main - e, periods, left, byo: false };
      e -= main;
      main = 0;
      byo = true;
      left = periodSeconds;
    }
    left -= e;
    while (left < 0 && periods > 1) {
      periods -= 1;
      left += periodSeconds;
    }
    if (left < 0) left = 0;
  }
  return { main, periods, left, byo };
}

export function mmss(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const m = Math.floor(s / 60);
  return `${String(m).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
}
