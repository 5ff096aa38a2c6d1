"""The provider seam: what yisai asks of a payment provider (WeChat Pay, Alipay …).

A provider turns an order into something a payer can pay (a QR code's text for a PC, a link for a
phone), proves a callback is its own (signature, decryption) and reports what was paid, answers
a query when no callback came, closes an order, refunds (and says later what became of a refund
still processing) and lists a day's bill. A provider that cannot be reached raises
``ProviderUnreachable`` (ask again later); one that refuses raises ``ProviderError``. All amounts are
integers of 分. Nothing here knows the ledger: ``services.fees`` compares what a provider says
with the order it stored before it applies anything.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Protocol

from yisai.i18n import Text

# what a provider's callback did (``flow.apply_callback``): booked, booked before, not the ledger's, not final
APPLIED, DUPLICATE, MISMATCH, NOT_PAID = "applied", "duplicate", "mismatch", "not_paid"
NATIVE, H5 = "native", "h5"  # a QR code on a PC; a link opened in a phone's browser
PAGE = "page"  # a link opened in a PC's browser: the provider's own cashier page (Alipay 电脑网站支付)
JSAPI = "jsapi"  # inside WeChat's own browser: the page asks WeixinJSBridge (WeChat Pay JSAPI 支付)
MODE_LABELS = {NATIVE: Text("扫码支付 (电脑)", "QR code (PC)"), H5: Text("手机支付", "phone (H5)"),
               PAGE: Text("电脑网页支付", "web page (PC)"), JSAPI: Text("微信内支付", "in WeChat")}


class ProviderError(Exception):
    """The provider refused or could not be reached; ``text`` says so in both languages."""

    def __init__(self, text: Text, code: str = "provider_error") -> None:
        super().__init__(text.en)
        self.text, self.code = text, code


class ProviderUnreachable(ProviderError):
    """The provider could not be reached, or answered with a server error or "too many
    requests": nothing was decided there, and the same request (the same ``out_trade_no`` or
    ``out_refund_no``, which the provider de-duplicates) may be sent again later."""


class BadCallback(ProviderError):
    """A callback that is not provably the provider's (signature, serial, decryption)."""


@dataclass(frozen=True, slots=True)
class OrderRequest:
    out_trade_no: str  # ≤ 32 ASCII letters and digits
    amount_fen: int
    description: str  # ≤ 127 bytes, shown to the payer
    expires_at: datetime  # Beijing time
    payer_ip: str = ""  # H5 needs the payer's address (scene_info)
    payer_openid: str = ""  # JSAPI needs the payer's openid under the merchant's 公众号 appid


@dataclass(frozen=True, slots=True)
class BridgeCall:
    """What the page hands ``WeixinJSBridge.invoke('getBrandWCPayRequest', …)``: signed on the
    server with the merchant's key (paySign over ``appId\\ntimeStamp\\nnonceStr\\npackage\\n``);
    the key itself never leaves the server."""

    app_id: str
    time_stamp: str
    nonce_str: str
    package: str  # "prepay_id=…"
    pay_sign: str
    sign_type: str = "RSA"

    def as_bridge(self) -> dict[str, str]:
        """The parameters by the names the bridge reads."""
        return {"appId": self.app_id, "timeStamp": self.time_stamp, "nonceStr": self.nonce_str,
                "package": self.package, "signType": self.sign_type, "paySign": self.pay_sign}


@dataclass(frozen=True, slots=True)
class PayTarget:
    mode: str  # native | h5 | page | jsapi
    url: str  # the QR code's text (weixin://wxpay/...), the H5 link, or JSAPI's package "prepay_id=…"
    bridge: BridgeCall | None = None  # JSAPI: the signed call the page makes


@dataclass(frozen=True, slots=True)
class Notice:
    """What a provider says of one order (a verified callback or a query's answer)."""

    notify_id: str  # the callback's own id ("" for a query)
    out_trade_no: str
    trade_state: str  # SUCCESS, NOTPAY, CLOSED, REFUND, … (the provider's word)
    transaction_id: str
    amount_fen: int
    currency: str
    merchant_id: str
    paid_at: datetime | None = None

    @property
    def paid(self) -> bool:
        return self.trade_state == "SUCCESS"


REFUND_SUCCESS, REFUND_PROCESSING, REFUND_ABNORMAL, REFUND_CLOSED = "SUCCESS", "PROCESSING", "ABNORMAL", "CLOSED"
# a query's answer: the provider has no refund made under this number (WeChat Pay 404
# RESOURCE_NOT_EXISTS; Alipay: no refund_status, "退款请求未收到或者退款失败"): send it again, same number
REFUND_NOT_FOUND = "NOT_FOUND"


@dataclass(frozen=True, slots=True)
class RefundResult:
    """What a provider says of one refund (its answer to the refund request, or a query)."""

    refund_id: str
    status: str  # SUCCESS | PROCESSING | ABNORMAL | CLOSED (WeChat Pay's words; Alipay's mapped) | NOT_FOUND
    message: str = ""  # the provider's own words when the refund did not go through
    refund_fen: int | None = None  # the amount the provider says it refunds, when its answer names one


@dataclass(frozen=True, slots=True)
class RefundNotice:
    """A verified refund notification (WeChat Pay REFUND.SUCCESS / ABNORMAL / CLOSED): the flow
    compares it with the refund row of ``out_refund_no`` before it records anything."""

    notify_id: str
    out_trade_no: str
    out_refund_no: str
    refund_id: str
    status: str  # SUCCESS | ABNORMAL | CLOSED
    refund_fen: int
    total_fen: int
    merchant_id: str


@dataclass(frozen=True, slots=True)
class BillLine:
    out_trade_no: str
    transaction_id: str
    amount_fen: int
    state: str


class Provider(Protocol):
    """One configured merchant account of one provider."""

    name: str  # wechat | alipay
    label: Text
    merchant_id: str
    currency: str
    order_minutes: int

    def create_order(self, req: OrderRequest, mode: str) -> PayTarget: ...

    def parse_callback(self, headers: dict[str, str], body: bytes) -> Notice | RefundNotice: ...

    def query(self, out_trade_no: str) -> Notice: ...

    def close(self, out_trade_no: str) -> None: ...

    def refund(self, out_trade_no: str, out_refund_no: str, refund_fen: int, total_fen: int,
               reason: str) -> RefundResult: ...

    def refund_query(self, out_trade_no: str, out_refund_no: str) -> RefundResult: ...

    def bill(self, day: date) -> list[BillLine]: ...

    @property
    def modes(self) -> tuple[str, ...]: ...


def in_wechat(user_agent: str) -> bool:
    """WeChat's built-in browser says ``MicroMessenger/…`` in its User-Agent (WeChat's own
    documents tell merchants to detect it so): there H5 payment is refused and JSAPI is used."""
    return "micromessenger" in user_agent.lower()


def on_phone(user_agent: str) -> bool:
    ua = user_agent.lower()
    return any(word in ua for word in ("iphone", "android", "mobile", "ipad", "harmonyos"))


def modes_for(modes: tuple[str, ...], user_agent: str) -> tuple[str, ...]:
    """The payment modes of one provider a page offers this browser, the likeliest first: WeChat
    Pay inside WeChat JSAPI and the QR code (never H5, which WeChat Pay refuses there; without
    JSAPI configured the QR code alone); on another phone H5 first; on a PC the QR code or the
    provider's web page first. Outside WeChat nothing is taken away (a PC may still open the H5
    link) and JSAPI is never offered (no bridge to call); Alipay inside WeChat is offered as
    elsewhere (WeChat may refuse to open its pages: the payer opens the link in another browser)."""
    if in_wechat(user_agent) and (NATIVE in modes or JSAPI in modes):
        return tuple(m for m in (JSAPI, NATIVE) if m in modes)
    offered = tuple(m for m in modes if m != JSAPI)
    first = (H5,) if on_phone(user_agent) else (NATIVE, PAGE)
    return tuple(m for m in first if m in offered) + tuple(m for m in offered if m not in first)
