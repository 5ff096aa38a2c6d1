// Team form: each row is checked as it is typed (after a short pause) against the regulation's
// eligibility rules; the reasons appear next to the row before anything is submitted.
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    var form = document.getElementById("teamform");
    if (!form) return;
    var url = form.getAttribute("data-check"), csrf = form.getAttribute("data-csrf");
    form.querySelectorAll("tr[data-prefix]").forEach(function (row) {
      var timer = null;
      function check() {
        var body = { division: row.getAttribute("data-division") };
        var any = false;
        row.querySelectorAll("input[data-header]").forEach(function (i) { body[i.getAttribute("data-header")] = i.value; if (i.value) any = true; });
        var g = row.getAttribute("data-gender") || (row.querySelector("select") || {}).value;
        body["性别"] = g === "M" ? "男" : g === "F" ? "女" : "";
        body["地区"] = "中国大陆";
        var state = row.querySelector(".state");
        if (!any) { state.textContent = ""; return; }
        fetch(url, { method: "POST", credentials: "same-origin",
                     headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf }, body: JSON.stringify(body) })
          .then(function (r) { return r.json(); })
          .then(function (data) {
            var reasons = data.reasons || [data.message];
            state.textContent = reasons.length ? reasons.join("；") : "✓";
            state.className = reasons.length ? "state error" : "state ok";
          });
      }
      row.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(check, 400); });
    });
  });
})();
