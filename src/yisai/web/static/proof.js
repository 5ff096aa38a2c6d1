// Proof of work before a sign-in code is sent (yisai.qualifier.proof): a form marked
// data-proof asks /play/proof for a fresh signed challenge, finds a number whose SHA-256 with it
// starts with the challenge's count of zero bits (Web Crypto), and posts the form with both.
(function () {
  "use strict";
  function zeroBits(bytes) {
    var n = 0;
    for (var i = 0; i < bytes.length; i++) {
      if (bytes[i] === 0) { n += 8; continue; }
      return n + Math.clz32(bytes[i]) - 24;
    }
    return n;
  }
  async function solve(challenge, bits) {
    var enc = new TextEncoder();
    for (var n = 0; ; n++) {
      var hash = await crypto.subtle.digest("SHA-256", enc.encode(challenge + ":" + n));
      if (zeroBits(new Uint8Array(hash)) >= bits) return String(n);
    }
  }
  document.querySelectorAll("form[data-proof]").forEach(function (form) {
    var status = form.querySelector("[data-proof-status]");
    form.addEventListener("submit", async function (ev) {
      if (form.dataset.solved === "1") return;
      ev.preventDefault();
      var button = form.querySelector("button[type=submit]");
      if (button) button.disabled = true;
      if (status) status.textContent = status.dataset.working;
      try {
        var answer = await fetch("/play/proof", {headers: {"Accept": "application/json"}, credentials: "same-origin"});
        var got = await answer.json();
        form.elements["proof_challenge"].value = got.challenge;
        form.elements["proof_solution"].value = await solve(got.challenge, got.bits);
        form.dataset.solved = "1";
        form.submit();
      } catch (e) {
        if (status) status.textContent = status.dataset.failed;
        if (button) button.disabled = false;
      }
    });
  });
})();
