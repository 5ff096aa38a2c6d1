// A table wider than the screen says so: its .scroll box gets the class "overflows" and a line
// "← 左右滑动查看更多 →" right under it (app.css shows it only then). Re-checked on resize and
// when poll.js replaces a table's HTML.
(function () {
  "use strict";
  function hint(box) {
    var next = box.nextElementSibling;
    if (next && next.classList.contains("scroll-hint")) return next;
    var p = document.createElement("p");
    p.className = "scroll-hint";
    p.textContent = document.documentElement.lang === "en" ? "← swipe sideways for more →" : "← 左右滑动查看更多 →";
    box.parentNode.insertBefore(p, box.nextSibling);
    return p;
  }
  function check() {
    document.querySelectorAll(".scroll").forEach(function (box) {
      var wide = box.scrollWidth > box.clientWidth + 1;
      box.classList.toggle("overflows", wide);
      if (wide) hint(box);
    });
  }
  function latestRounds() {
    // On a phone each division's round buttons are one line that scrolls sideways (app.css):
    // start it at the newest round, the one a parent looks for.
    document.querySelectorAll("nav.rounds .division-rounds").forEach(function (line) {
      line.scrollLeft = line.scrollWidth;
    });
  }
  document.addEventListener("DOMContentLoaded", check);
  document.addEventListener("DOMContentLoaded", latestRounds);
  window.addEventListener("resize", check);
  document.addEventListener("yisai:updated", check);
})();
