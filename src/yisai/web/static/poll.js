// Refresh every element with data-poll="URL" from that URL every few seconds (ETag: a 304
// costs nothing while nothing changed). No framework: a small fetch loop.
(function () {
  "use strict";
  function start(el) {
    var url = el.getAttribute("data-poll");
    var every = parseInt(el.getAttribute("data-every") || "3000", 10);
    var etag = null;
    function tick() {
      var headers = {};
      if (etag) headers["If-None-Match"] = etag;
      fetch(url, { headers: headers, credentials: "same-origin", cache: "no-store" })
        .then(function (r) {
          if (r.status === 200) {
            etag = r.headers.get("ETag");
            return r.text().then(function (html) { el.innerHTML = html; el.setAttribute("data-updated", String(Date.now())); document.dispatchEvent(new Event("yisai:updated")); });
          }
        })
        .catch(function () {})
        .then(function () { setTimeout(tick, every); });
    }
    setTimeout(tick, every);
  }
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-poll]").forEach(start);
  });
})();
