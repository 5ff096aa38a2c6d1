// The live socket with automatic reconnection: after every (re)connection the server's
// welcome message lets the page join its game again and resync from the full state.

const BACKOFF = [500, 1000, 2000, 4000, 5000];
const REFUSED = 4401;  // the server closes with this when it refuses the ticket

export class Connection {
  constructor(url, onMessage, onStatus) {
    this.url = url;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.tries = 0;
    this.ws = null;
    this.closedByUs = false;
    this.onRefused = null;  // set by the page: renew the ticket, then connect() again
  }

  connect() {
    this.onStatus(this.tries ? "reconnecting" : "connecting");
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onopen = () => {
      this.tries = 0;
      this.onStatus("open");
    };
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch (_) {
        return;
      }
      this.onMessage(msg);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws || this.closedByUs) return;
      if (ev.code === REFUSED && this.onRefused) {  // the ticket: retrying the same URL cannot help
        this.onStatus("renewing");
        this.onRefused();
        return;
      }
      const wait = BACKOFF[Math.min(this.tries, BACKOFF.length - 1)];
      this.tries += 1;
      this.onStatus("lost", wait);
      setTimeout(() => this.connect(), wait);
    };
  }

  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  /** For tests and a "drop the line" debug: close the socket and let reconnection run. */
  drop() {
    if (this.ws) this.ws.close();
  }
}
