// Result-entry grid: type 1 / 2 / = (or 黑胜, 白胜, B+R ...) and press Enter: the result is sent
// as typed (the server's one map of keys reads 1, 2, =, 0) with the board's version; the cursor
// moves to the next board. A conflict (someone else entered the board first) shows the other
// entry and keeps yours in the box for a deliberate correction; any other refusal (not a result,
// a correction without a note) says briefly what is accepted and clears the box. The result that
// is already stored is "already there", not an error.
(function () {
  "use strict";
  function send(input) {
    var grid = input.closest("table.grid");
    var row = input.closest("tr");
    var state = row.querySelector(".state");
    var noteBox = row.querySelector("input.note");
    var text = input.value.trim();
    if (!text) return Promise.resolve(false);
    var body = {
      board: parseInt(row.getAttribute("data-board"), 10),
      group: row.getAttribute("data-group"),
      result: text,
      version: parseInt(row.getAttribute("data-version"), 10),
      note: noteBox ? noteBox.value : ""
    };
    state.textContent = "…";
    return fetch(grid.getAttribute("data-post"), {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": grid.getAttribute("data-csrf") },
      body: JSON.stringify(body)
    }).then(function (r) {
      return r.json().then(function (data) {
        if (r.ok) {
          row.setAttribute("data-version", String(data.version));
          row.querySelector(".current").textContent = data.result;
          state.textContent = data.message; state.className = "state ok";
          input.value = "";
          return true;
        }
        if (data.params && data.params.version) row.setAttribute("data-version", String(data.params.version));
        if (data.params && data.params.current) row.querySelector(".current").textContent = data.params.current;
        state.textContent = data.message; state.className = "state error";
        // A conflict keeps what was typed for a deliberate correction; any other refusal clears
        // the box so a second Enter cannot send the refused text again.
        if (data.code !== "result_conflict") input.value = "";
        return false;
      });
    }).catch(function () { state.textContent = "?"; state.className = "state error"; return false; });
  }
  document.addEventListener("DOMContentLoaded", function () {
    var inputs = Array.prototype.slice.call(document.querySelectorAll("table.grid input.res"));
    inputs.forEach(function (input, i) {
      input.addEventListener("keydown", function (ev) {
        if (ev.key !== "Enter") return;
        ev.preventDefault();
        send(input).then(function (ok) {
          if (ok && inputs[i + 1]) inputs[i + 1].focus();
        });
      });
    });
    if (inputs[0]) inputs[0].focus();
  });
})();
