// The 规程 drafter's page: a field tag under a sentence of the source selects that field's own
// value in the draft beside it (the server gives the line each value starts on; a table's tag
// selects the table, a multi-line value all its lines). Once the file is edited by hand the lines
// may have moved: the tag then finds the comment quoting its sentence.
(function () {
  "use strict";
  var box = document.querySelector("textarea.toml");
  if (!box) { return; }
  function lineStart(text, at) { return text.lastIndexOf("\n", at - 1) + 1; }
  function lineEnd(text, at) { var e = text.indexOf("\n", at); return e === -1 ? text.length : e; }
  function depth(line) {
    var d = 0, quoted = false;
    for (var i = 0; i < line.length; i++) {
      var c = line.charAt(i);
      if (c === '"' && line.charAt(i - 1) !== "\\") { quoted = !quoted; }
      else if (!quoted && c === "#") { break; }
      else if (!quoted && (c === "[" || c === "{")) { d++; }
      else if (!quoted && (c === "]" || c === "}")) { d--; }
    }
    return d;
  }
  function valueEnd(text, start) {
    // a [table] header: its keys up to a blank line or the next header; a key: until its
    // brackets close
    var end = lineEnd(text, start), first = text.slice(start, end).trim();
    if (first.charAt(0) === "[") {
      while (end < text.length) {
        var next = lineEnd(text, end + 1), line = text.slice(end + 1, next).trim();
        if (line === "" || line.charAt(0) === "[") { break; }
        end = next;
      }
      return end;
    }
    var open = depth(first);
    while (open > 0 && end < text.length) {
      var after = lineEnd(text, end + 1);
      open += depth(text.slice(end + 1, after));
      end = after;
    }
    return end;
  }
  function select(start, end) {
    var text = box.value;
    box.focus();
    box.setSelectionRange(start, end);
    var lines = text.slice(0, start).split("\n").length - 1;
    box.scrollTop = Math.max(0, lines * (box.scrollHeight / Math.max(1, text.split("\n").length)) - 40);
  }
  function atLine(n) {
    var text = box.value, at = 0;
    for (var i = 1; i < n; i++) {
      at = text.indexOf("\n", at) + 1;
      if (at === 0) { return -1; }
    }
    return at;
  }
  function show(tag) {
    var text = box.value, line = parseInt(tag.getAttribute("data-line") || "0", 10);
    if (line > 0 && text === box.defaultValue) {
      var at = atLine(line);
      if (at >= 0) { select(at, valueEnd(text, at)); return true; }
    }
    var sentence = tag.closest("[data-sentence]").getAttribute("data-sentence");
    var probe = sentence.slice(0, 24), found = probe ? text.indexOf(probe) : -1;
    if (found === -1) { return false; }
    var start = lineEnd(text, found) + 1;
    while (start < text.length && text.charAt(start) === "#") { start = lineEnd(text, start) + 1; }
    if (start >= text.length) { return false; }
    select(start, valueEnd(text, start));
    return true;
  }
  document.querySelectorAll(".draft-source [data-sentence] .field").forEach(function (tag) {
    tag.addEventListener("click", function () {
      if (!show(tag)) { tag.classList.add("missing"); }
    });
  });
})();
