// The 规程 drafter's page: a field tag under a sentence of the source jumps to the lines of the
// draft that sentence set (the draft quotes each sentence in a comment above its values), so the
// director sees and corrects them in place.
(function () {
  "use strict";
  var box = document.querySelector("textarea.toml");
  if (!box) { return; }
  function lineStart(text, at) { return text.lastIndexOf("\n", at - 1) + 1; }
  function blockEnd(text, from) {
    // after the quoting comment(s): the values up to a blank line or the next comment
    var pos = text.indexOf("\n", from), seenValue = false;
    while (pos !== -1 && pos + 1 < text.length) {
      var next = text.indexOf("\n", pos + 1);
      var line = text.slice(pos + 1, next === -1 ? text.length : next).trim();
      if (line === "" || (seenValue && line.charAt(0) === "#")) { return pos; }
      if (line.charAt(0) !== "#") { seenValue = true; }
      pos = next;
    }
    return text.length;
  }
  function show(sentence, field) {
    var text = box.value, probe = sentence.slice(0, 24), at = probe ? text.indexOf(probe) : -1;
    if (at === -1 && field) { at = text.indexOf(field.split(".").pop().replace(/\[\d+\]$/, "")); }
    if (at === -1) { return false; }
    var start = lineStart(text, at), end = blockEnd(text, start);
    box.focus();
    box.setSelectionRange(start, end);
    var lines = text.slice(0, start).split("\n").length - 1;
    box.scrollTop = Math.max(0, lines * (box.scrollHeight / Math.max(1, text.split("\n").length)) - 40);
    return true;
  }
  document.querySelectorAll(".draft-source [data-sentence] .field").forEach(function (tag) {
    tag.addEventListener("click", function () {
      var p = tag.closest("[data-sentence]");
      if (!show(p.getAttribute("data-sentence"), tag.textContent)) { tag.classList.add("missing"); }
    });
  });
})();
