// WeChat Pay JSAPI (微信内支付): hand the server-signed parameters to WeChat's own bridge
// (WeixinJSBridge, present only inside WeChat's browser). When WeChat answers
// "get_brand_wcpay_request:ok" the payer is sent on to the order's result: the page submits its
// 「我已支付, 查询结果」 form, which asks WeChat Pay (the answer alone proves nothing).
(function () {
  "use strict";
  function start(el) {
    var call = JSON.parse(el.getAttribute("data-wxpay"));
    var status = el.querySelector("[data-status]");
    var button = document.getElementById("wxpay-button");
    function say(text) { status.textContent = text; }
    function invoke() {
      window.WeixinJSBridge.invoke("getBrandWCPayRequest", call, function (res) {
        var said = (res && res.err_msg) || "";
        if (said === "get_brand_wcpay_request:ok") {
          var check = document.getElementById("check-order");
          if (check) { check.submit(); }
        } else if (said === "get_brand_wcpay_request:cancel") {
          say(el.getAttribute("data-cancel"));
          button.disabled = false;
        } else {
          say(el.getAttribute("data-fail") + " " + said);
          button.disabled = false;
        }
      });
    }
    button.addEventListener("click", function () {
      button.disabled = true;
      if (window.WeixinJSBridge && window.WeixinJSBridge.invoke) {
        invoke();
      } else if (/MicroMessenger/i.test(navigator.userAgent)) {
        say(el.getAttribute("data-wait"));
        document.addEventListener("WeixinJSBridgeReady", invoke, false);
      } else {
        say(el.getAttribute("data-outside"));
        button.disabled = false;
      }
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-wxpay]").forEach(start);
  });
})();
