// The player's (and spectator's) board for the online qualifier: matching, the game, clocks,
// the scoring phase, presence notices, reconnection. Protocol: yisai.live.server's docstring.
import { h, render, Component } from "preact";
import { Goban } from "@sabaki/shudan";
import "@sabaki/shudan/css/goban.css";
import "./play.css";
import { emptyBoard, pointOf, replay, vertexOf } from "./board.js";
import { mmss, timeNow } from "./clock.js";
import { Connection } from "./connection.js";

const root = document.getElementById("play");
const setup = JSON.parse(root.dataset.setup);
const en = setup.lang === "en";
const t = (zh, english) => (en ? english : zh);
const coarse = window.matchMedia && window.matchMedia("(pointer: coarse)").matches;

const REASONS = {
  score: t("数子", "by count"), resign: t("中盘认输", "resignation"), time: t("超时判负", "on time"),
  forfeit: t("弃权", "forfeit"), escape: t("逃跑", "escape"), cycle: t("循环劫", "cycle"),
};

function resultText(result, reason) {
  if (!result) return "";
  let who;
  if (result.startsWith("B+")) who = t("黑胜", "Black wins");
  else if (result.startsWith("W+")) who = t("白胜", "White wins");
  else if (result === "0") who = t("和棋", "draw");
  else if (result === "Void") who = t("双方判负", "both lose");
  else who = result;
  const margin = /^[BW]\+(\d+(\.\d+)?)$/.exec(result);
  const extra = margin ? t(` ${margin[1]}目`, ` by ${margin[1]} points`) : "";
  return `${who}${extra} (${REASONS[reason] || reason || result})`;
}

function stones(komiPoints) {  // 7.5 目 → "3¾"
  const s = komiPoints / 2;
  const whole = Math.floor(s);
  const frac = { 0: "", 0.25: "¼", 0.5: "½", 0.75: "¾" }[s - whole];
  return frac === undefined ? String(s) : `${whole || (frac ? "" : "0")}${frac}`;
}

class App extends Component {
  constructor() {
    super();
    this.state = {
      conn: "connecting", retryIn: 0, lobby: "idle", queued: null, game: null, ghost: null,
      pending: false, note: "", confirmResign: false, now: Date.now(),
      confirmMoves: localStorage.getItem("yisai-confirm") !== null
        ? localStorage.getItem("yisai-confirm") === "1" : coarse,
    };
    this.player = null;
  }

  socketUrl() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const q = new URLSearchParams({ lang: setup.lang });
    if (setup.mode === "play") q.set("ticket", setup.ticket);
    return `${proto}://${location.host}/live/ws?${q}`;
  }

  componentDidMount() {
    this.conn = new Connection(this.socketUrl(),
      (m) => this.receive(m), (status, wait) => this.setState({ conn: status, retryIn: wait || 0 }));
    this.conn.onRefused = () => this.renewTicket();
    this.conn.connect();
    window.yisaiPlay = this;  // for debugging and the browser tests (drop the line)
    this.timer = setInterval(() => this.setState({ now: Date.now() }), 250);
    this.onResize = () => this.forceUpdate();
    window.addEventListener("resize", this.onResize);
  }

  componentWillUnmount() {
    clearInterval(this.timer);
    window.removeEventListener("resize", this.onResize);
  }

  // ----- messages -----------------------------------------------------------------------
  receive(m) {
    const handler = this["on_" + m.t];
    if (handler) handler.call(this, m);
  }

  on_ping(m) { this.conn.send({ t: "pong", at: m.at }); }

  on_welcome(m) {
    this.player = m.player;
    const current = this.state.game && this.state.game.id;
    if (setup.mode === "watch") this.conn.send({ t: "join", game: setup.game });
    else if (current) this.conn.send({ t: "join", game: current });
    else if (m.games.length) this.conn.send({ t: "join", game: Math.max(...m.games) });
    else if (this.state.lobby === "queued") this.conn.send({ t: "queue" });  // requeue after a drop
  }

  on_queued(m) { this.setState({ lobby: "queued", queued: { ...m, since: Date.now() }, note: "" }); }

  on_left() { this.setState({ lobby: "idle", queued: null }); }

  on_matched(m) {
    this.setState({ lobby: "playing", queued: null, info: true, note: t(`匹配成功, 对手: ${m.opponent}`, `matched with ${m.opponent}`) });
  }

  on_state(m) {
    const prev = this.state.game;
    const you = m.you || (prev && prev.id === m.game ? prev.you : null);
    const game = { ...m, id: m.game, you, at: Date.now() };
    this.setState({ game, lobby: m.result ? "idle" : "playing", pending: false, ghost: null });
  }

  on_update(m) {
    const g = this.state.game;
    if (!g || g.id !== m.game || m.version <= g.version) return;
    if (m.version !== g.version + 1 || m.action.kind === "reject") {  // a gap, or play resumes
      this.conn.send({ t: "sync", game: g.id });
      return;
    }
    const moves = g.moves.concat([m.action]);
    const next = { ...g, version: m.version, moves, phase: m.phase, clocks: m.clocks, at: Date.now() };
    if (m.action.kind === "move" || m.action.kind === "pass") {
      next.to_move = m.action.color === "B" ? "W" : "B";
    }
    next.running = next.phase === "playing" ? next.to_move : null;
    if (m.phase === "scoring") Object.assign(next, { dead: m.dead, accepted: m.accepted, count: m.count });
    const mine = m.action.color === g.you;
    this.setState({ game: next, ghost: mine ? null : this.state.ghost, pending: mine ? false : this.state.pending,
      note: this.state.info ? "" : this.state.note });
  }

  on_ack(m) {
    if (this.state.game && m.game === this.state.game.id) this.setState({ pending: false });
  }

  on_refused(m) {
    this.setState({ pending: false, ghost: null, note: m.message, info: false });
    if (m.code === "stale" && this.state.game) this.conn.send({ t: "sync", game: this.state.game.id });
  }

  on_ended(m) {
    const g = this.state.game;
    const you = g && g.id === m.game ? g.you : null;
    this.setState({ game: { ...m.state, id: m.game, you, at: Date.now() }, lobby: "idle", pending: false,
      ghost: null, confirmResign: false, note: "" });
  }

  on_presence(m) {
    const g = this.state.game;
    if (g && g.id === m.game) this.setState({ game: { ...g, clocks: m.clocks, at: Date.now() } });
  }

  // The socket refused the ticket (it expires after some hours): fetch a fresh one with the
  // page's sign-in and connect again; a fresh ticket refused as well means stop and say so.
  renewTicket() {
    const recent = this.renewedAt && Date.now() - this.renewedAt < 60000;
    const stop = (note) => this.setState({ conn: "refused", note, info: false });
    if (recent) return stop(t("无法连接对局服务器, 请刷新页面", "cannot connect to the game server; reload the page"));
    fetch("/play/ticket", { credentials: "same-origin", cache: "no-store" })
      .then((r) => (r.ok ? r.json() : Promise.reject(r.status)))
      .then((data) => {
        setup.ticket = data.ticket;
        this.renewedAt = Date.now();
        this.conn.url = this.socketUrl();
        this.setState({ note: "" });
        this.conn.connect();
      })
      .catch(() => stop(t("登录已失效, 请重新登录", "you are signed out; sign in again")));
  }

  on_error(m) {
    const lobby = this.state.lobby === "queued" ? "idle" : this.state.lobby;
    this.setState({ note: m.message, info: false, lobby, pending: false });
  }

  // ----- actions ------------------------------------------------------------------------
  act(kind, point) {
    const g = this.state.game;
    if (!g || this.state.pending) return;
    const msg = { t: "act", game: g.id, kind, version: g.version };
    if (point) msg.point = point;
    if (this.conn.send(msg)) this.setState({ pending: true, note: "" });
  }

  clickVertex(v) {
    const g = this.state.game;
    if (!g || !g.you || g.result) return;
    const board = replay(g.size, g.moves).board;
    if (g.phase === "scoring") {
      if (board[v[1]][v[0]] !== 0) this.act("toggle", pointOf(v, g.size));
      return;
    }
    if (g.to_move !== g.you || board[v[1]][v[0]] !== 0 || this.state.pending) return;
    const gh = this.state.ghost;
    if (this.state.confirmMoves && !(gh && gh[0] === v[0] && gh[1] === v[1])) {
      this.setState({ ghost: v });
      return;
    }
    this.act("move", pointOf(v, g.size));
  }

  toggleConfirm() {
    const value = !this.state.confirmMoves;
    localStorage.setItem("yisai-confirm", value ? "1" : "0");
    this.setState({ confirmMoves: value, ghost: null });
  }

  // ----- drawing ------------------------------------------------------------------------
  clock(color) {
    const g = this.state.game;
    const c = g.clocks[color];
    const running = !g.result && g.running === color;
    const tn = timeNow(c, running, this.state.now - g.at, setup.period);
    const name = color === "B" ? g.black : g.white;
    const time = tn.byo
      ? t(`读秒 ${Math.ceil(tn.left)}秒 · 剩${tn.periods}次`, `byo-yomi ${Math.ceil(tn.left)} s · ${tn.periods} left`)
      : `${mmss(tn.main)} + ${setup.periods}×${setup.period}${t("秒", "s")}`;
    let away = null;
    if (!g.result && c.connected === false) {
      const left = c.escape_in === null ? null : Math.max(0, c.escape_in - (this.state.now - g.at) / 1000);
      away = h("div", { class: "away", role: "status" },
        t(`${color === g.you ? "你" : (g.you ? "对手" : name)}已离线 · 断线${c.disconnections}次`,
          `${color === g.you ? "You are" : (g.you ? "Opponent is" : name + " is")} away · ${c.disconnections} disconnections`),
        left === null ? "" : t(` · ${Math.ceil(left)}秒后判逃跑`, ` · escape in ${Math.ceil(left)} s`));
    }
    return h("div", { class: `clock ${color === "B" ? "black" : "white"}${running ? " running" : ""}${tn.byo ? " byo" : ""}`, "data-color": color },
      h("span", { class: "stone-dot" }),
      h("span", { class: "name" }, name, color === g.you ? t(" (你)", " (you)") : ""),
      h("span", { class: "time" }, time), away);
  }

  vertexSize(size) {
    const wide = window.innerWidth >= 900;
    const avail = wide ? Math.min(window.innerHeight - 150, 700) : Math.min(window.innerWidth - 20, 640);
    return Math.max(12, Math.floor(avail / (size + 1.6)));
  }

  boardView() {
    const g = this.state.game;
    const size = g ? g.size : 19;
    const pos = g ? replay(size, g.moves) : { board: emptyBoard(size), last: null };
    const markerMap = emptyBoard(size).map((row) => row.map(() => null));
    const ghostStoneMap = emptyBoard(size).map((row) => row.map(() => null));
    const dimmed = [];
    if (pos.last) markerMap[pos.last[1]][pos.last[0]] = { type: "point" };
    if (g && g.phase === "scoring" && g.dead) {
      for (const p of g.dead) {
        const v = vertexOf(p, size);
        markerMap[v[1]][v[0]] = { type: "cross" };
        dimmed.push(v);
      }
    }
    const gh = this.state.ghost;
    if (gh && g) ghostStoneMap[gh[1]][gh[0]] = { sign: g.you === "B" ? 1 : -1 };
    return h("div", { class: "board-wrap", "data-version": g ? g.version : "", "data-phase": g ? g.phase : "" },
      h(Goban, {
        vertexSize: this.vertexSize(size), signMap: pos.board, markerMap, ghostStoneMap,
        dimmedVertices: dimmed, showCoordinates: true, fuzzyStonePlacement: false,
        animateStonePlacement: false, busy: this.state.pending,
        onVertexClick: (_e, v) => this.clickVertex(v),
      }));
  }

  controls() {
    const g = this.state.game;
    const s = this.state;
    const out = [];
    if (setup.mode === "play" && (!g || g.result) && s.lobby !== "queued") {
      out.push(h("button", { class: "big", id: "queue", disabled: s.conn !== "open",
        onClick: () => this.conn.send({ t: "queue" }) }, g ? t("再来一局", "Play again") : t("开始匹配", "Find a game")));
    }
    if (s.lobby === "queued" && s.queued) {
      const secs = Math.max(0, Math.floor((s.now - s.queued.since) / 1000));
      out.push(h("div", { class: "queued", role: "status" },
        t(`匹配中… 第${s.queued.period}期 · 已等待 ${secs} 秒`, `looking for an opponent… period ${s.queued.period} · ${secs} s`),
        " ", h("button", { class: "secondary", onClick: () => this.conn.send({ t: "leave" }) }, t("取消", "Cancel"))));
    }
    if (g && g.result) {
      out.push(h("div", { class: "result", role: "status" }, t("对局结束: ", "Game over: "), resultText(g.result, g.reason),
        setup.mode === "play" ? h("span", null, " · ", h("a", { href: "/play/games" }, t("我的对局与棋谱", "my games and records"))) : ""));
    }
    if (g && !g.result && g.you && g.phase === "playing") {
      const myTurn = g.to_move === g.you;
      out.push(h("div", { class: "turn" }, myTurn ? t("轮到你下", "your move") : t("等待对手落子", "opponent to move")));
      const row = [];
      if (s.confirmMoves) {
        row.push(h("button", { id: "confirm-move", disabled: !s.ghost || s.pending,
          onClick: () => s.ghost && this.act("move", pointOf(s.ghost, g.size)) }, t("确认落子", "Confirm move")));
      }
      row.push(h("button", { id: "pass", class: "secondary", disabled: !myTurn || s.pending, onClick: () => this.act("pass") }, t("停一手", "Pass")));
      row.push(h("button", { id: "resign", class: "warn", onClick: () => this.setState({ confirmResign: true }) }, t("认输", "Resign")));
      out.push(h("div", { class: "buttons" }, row));
      if (s.confirmResign) {
        out.push(h("div", { class: "confirm", role: "alertdialog" }, t("确定认输吗?", "Really resign?"), " ",
          h("button", { id: "resign-yes", class: "warn", onClick: () => { this.setState({ confirmResign: false }); this.act("resign"); } }, t("确定认输", "Resign")),
          " ", h("button", { class: "secondary", onClick: () => this.setState({ confirmResign: false }) }, t("取消", "Cancel"))));
      }
      out.push(h("label", { class: "muted small" }, h("input", { type: "checkbox", checked: s.confirmMoves, onChange: () => this.toggleConfirm() }),
        t(" 落子需确认 (点一下放虚子, 再点一下或按确认才下)", " confirm moves (tap shows a ghost stone; tap again or Confirm to play)")));
    }
    if (g && !g.result && g.phase === "scoring") out.push(this.scoring());
    if (s.note) out.push(h("p", { class: s.info ? "note info" : "note", role: s.info ? "status" : "alert" }, s.note));
    return out;
  }

  scoring() {
    const g = this.state.game;
    const c = g.count || {};
    const size2 = g.size * g.size;
    const needs = size2 / 2 + setup.komi / 2;
    const acceptedByMe = g.you && (g.accepted || []).includes(g.you);
    return h("div", { class: "scoring panel" },
      h("strong", null, t("数子阶段", "Counting")), " ",
      h("span", { class: "muted" }, t("点击棋子标记/取消死子", "tap a chain to mark it dead or alive")),
      h("p", { class: "count" },
        t(`黑方 ${c.black} 子 (贴 ${stones(setup.komi)} 子, 黑需 ${needs} 子) → ${resultText(c.result, "score")}`,
          `Black ${c.black} (komi ${setup.komi}, Black needs ${needs}) → ${resultText(c.result, "score")}`)),
      h("p", { class: "muted" }, t("已同意: ", "accepted: "),
        (g.accepted || []).map((x) => (x === "B" ? t("黑方", "Black") : t("白方", "White"))).join("、") || t("无", "nobody")),
      g.you ? h("div", { class: "buttons" },
        h("button", { id: "accept", disabled: acceptedByMe || this.state.pending, onClick: () => this.act("accept") }, acceptedByMe ? t("已同意", "Accepted") : t("同意结果", "Accept")),
        h("button", { id: "reject", class: "secondary", disabled: this.state.pending, onClick: () => this.act("reject") }, t("不同意, 继续对局", "Reject, resume play"))) : "");
  }

  render() {
    const s = this.state;
    const g = s.game;
    const status = { open: "", connecting: t("正在连接…", "connecting…"), reconnecting: t("正在重新连接…", "reconnecting…"),
      renewing: t("正在更新登录凭证…", "renewing the sign-in ticket…"), refused: t("未连接", "not connected"),
      lost: t(`连接中断, ${Math.ceil(s.retryIn / 1000)}秒后重连`, `connection lost; retrying in ${Math.ceil(s.retryIn / 1000)} s`) }[s.conn];
    return h("div", { class: "play-app", "data-conn": s.conn, "data-lobby": s.lobby },
      status ? h("div", { class: "conn", role: "status" }, status) : "",
      setup.mode === "watch" ? h("div", { class: "watching muted" }, t("观战中 (只读)", "watching (read-only)")) : "",
      h("div", { class: "play-grid" },
        this.boardView(),
        h("div", { class: "side" },
          g ? h("div", { class: "clocks" }, this.clock("B"), this.clock("W")) : "",
          this.controls())));
  }
}

root.textContent = "";  // the server-rendered "connecting…" placeholder
render(h(App, null), root);
