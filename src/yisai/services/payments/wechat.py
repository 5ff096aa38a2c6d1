"""WeChat Pay API v3 through the maintained SDK ``wechatpayv3``: Native (a QR code for a PC), H5 (a
phone's browser) and JSAPI (WeChat's own browser), callbacks, query, close, refund and the daily
trade bill.

The SDK signs every request with the merchant's private key (``Authorization:
WECHATPAY2-SHA256-RSA2048 …`` with the API certificate's serial), checks the signature of every
answer and callback with WeChat Pay's public key (or a platform certificate) and decrypts a
callback's resource (AEAD_AES_256_GCM with the APIv3 key). Here: the settings, the amounts in 分
and the answers turned into the seam's records. ``YISAI_WECHATPAY_GATEWAY`` points the SDK at
another host (the tests' local server); it is the SDK's own gateway setting.
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import os
import secrets
import time
from collections.abc import Mapping
from datetime import date, datetime
from pathlib import Path
from typing import Any, TypedDict

from yisai.i18n import Text
from yisai.services.payments.base import (
    H5,
    JSAPI,
    NATIVE,
    REFUND_NOT_FOUND,
    BadCallback,
    BillLine,
    BridgeCall,
    Notice,
    OrderRequest,
    PayTarget,
    ProviderError,
    ProviderUnreachable,
    RefundNotice,
    RefundResult,
)
from yisai.services.payments.config import config_error, order_minutes, required, secret_file
from yisai.vocabulary.money import fen_of_yuan

GATEWAY = "https://api.mch.weixin.qq.com"
ENV = "YISAI_WECHATPAY_"


def _failed(what: str, exc: BaseException | str, *, unreachable: bool = False) -> ProviderError:
    """The provider's refusal, or (``unreachable``) no answer to act on: the network, a server
    error, "too many requests", an answer whose signature does not verify."""
    detail = exc if isinstance(exc, str) else type(exc).__name__
    kind = ProviderUnreachable if unreachable else ProviderError
    return kind(Text(f"微信支付{what}失败: {detail}", f"WeChat Pay {what} failed: {detail}"), code="wechat_failed")


def _sdk(*, gateway: str, private_key: str, public_key: str, public_key_id: str, cert_dir: str,
         **kw: Any) -> Any:
    """The SDK's client pointed at ``gateway``, without a logger (its lines hold signatures).

    Public-key mode: made as it is, then given the gateway. Platform-certificate mode: the SDK's
    constructor loads the platform certificates at once (from ``cert_dir``, else downloaded from
    ``GET /v3/certificates`` of its default host, before a gateway can be set). So it is made with
    the merchant's own public key standing in (dropped before any request), given the gateway, and
    asked to load the certificates as its constructor would. From then on it is in the state its
    constructor leaves: an answer or callback signed under a serial it does not hold makes it
    download the list again (a rotated certificate is found and saved in ``cert_dir``); a serial
    still not there is refused.
    """
    from cryptography.hazmat.primitives import serialization
    from wechatpayv3 import WeChatPay, WeChatPayType
    from wechatpayv3.utils import load_private_key

    common = {"wechatpay_type": WeChatPayType.NATIVE, "private_key": private_key, "logger": None, **kw}
    if public_key:
        pay = WeChatPay(public_key=public_key, public_key_id=public_key_id, **common)
        pay._core._gate_way = gateway  # the SDK's gateway (the real host by default)
        return pay
    stand_in = load_private_key(private_key).public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode()
    pay = WeChatPay(public_key=stand_in, public_key_id="-", cert_dir=cert_dir, **common)
    core = pay._core
    core._gate_way, core._public_key, core._public_key_id = gateway, None, None
    try:
        core._init_certificates()
    except Exception as exc:  # unreachable, refused (401), or nothing it could decrypt with the APIv3 key
        detail = type(exc).__name__
        raise ProviderError(Text(
            f"微信支付平台证书无法取得 ({detail}): {ENV}CERT_DIR 中没有有效证书, GET /v3/certificates 也未成功;"
            f" 请检查 {ENV}APIV3_KEY_FILE、{ENV}PRIVATE_KEY_FILE、{ENV}CERT_SERIAL 与网络",
            f"no WeChat Pay platform certificate ({detail}): none valid in {ENV}CERT_DIR and GET "
            f"/v3/certificates failed; check {ENV}APIV3_KEY_FILE, {ENV}PRIVATE_KEY_FILE, {ENV}CERT_SERIAL "
            "and the network"), code="bad_payment_config") from None
    return pay


class WeChatPayProvider:
    """One WeChat Pay merchant (直连商户), API v3."""

    name = "wechat"
    label = Text("微信支付", "WeChat Pay")
    currency = "CNY"

    def __init__(self, *, mchid: str, appid: str, private_key: str, cert_serial_no: str, apiv3_key: str,
                 notify_url: str, public_key: str = "", public_key_id: str = "", cert_dir: str = "",
                 gateway: str = GATEWAY, order_minutes: int = 30, timeout: int = 10, h5: bool = True,
                 jsapi: bool = False) -> None:
        """Public-key mode (``public_key`` + ``public_key_id``: the 微信支付公钥) or platform-certificate
        mode (``cert_dir``: where the certificates from ``GET /v3/certificates`` are kept)."""
        from wechatpayv3 import WeChatPayType

        self.merchant_id, self.appid, self.order_minutes = mchid, appid, order_minutes
        self._h5, self._jsapi = h5, jsapi
        self._types = {NATIVE: WeChatPayType.NATIVE, H5: WeChatPayType.H5, JSAPI: WeChatPayType.JSAPI}
        try:
            self._pay = _sdk(mchid=mchid, private_key=private_key, cert_serial_no=cert_serial_no, appid=appid,
                             apiv3_key=apiv3_key, notify_url=notify_url, public_key=public_key,
                             public_key_id=public_key_id, cert_dir=cert_dir, gateway=gateway.rstrip("/"),
                             timeout=(timeout, timeout))
        except ProviderError:
            raise
        except Exception as exc:  # the SDK raises bare Exception for a key it cannot load
            raise ProviderError(Text(f"微信支付设置有误: {exc}", f"WeChat Pay settings are wrong: {exc}"),
                                code="bad_payment_config") from None

    def __repr__(self) -> str:
        return f"WeChatPayProvider(mchid={self.merchant_id})"

    @property
    def modes(self) -> tuple[str, ...]:
        return (NATIVE,) + ((H5,) if self._h5 else ()) + ((JSAPI,) if self._jsapi else ())

    def _call(self, what: str, fn: Any, **kw: Any) -> tuple[int, Any]:
        try:
            code, message = fn(**kw)
        except Exception as exc:  # network errors and the SDK's "failed to verify the signature"
            raise _failed(what, exc, unreachable=True) from None
        return int(code), message

    def _json(self, what: str, code: int, message: Any, ok: tuple[int, ...] = (200,)) -> dict[str, Any]:
        if code not in ok:
            try:
                data = json.loads(message)
                detail = f"{data.get('code', code)} {data.get('message', '')}".strip()
            except (TypeError, ValueError):
                detail = str(code)
            raise _failed(what, detail, unreachable=code >= 500 or code == 429)  # SYSTEM_ERROR, FREQUENCY_LIMITED
        try:
            found = json.loads(message)
        except (TypeError, ValueError):
            raise _failed(what, "answer is not JSON") from None
        if not isinstance(found, dict):
            raise _failed(what, "answer is not an object")
        return found

    def create_order(self, req: OrderRequest, mode: str) -> PayTarget:
        kw: dict[str, Any] = {
            "description": req.description, "out_trade_no": req.out_trade_no,
            "amount": {"total": req.amount_fen, "currency": self.currency},
            "time_expire": req.expires_at.strftime("%Y-%m-%dT%H:%M:%S+08:00"), "pay_type": self._types[mode],
        }
        if mode == H5:
            kw["scene_info"] = {"payer_client_ip": req.payer_ip or "127.0.0.1", "h5_info": {"type": "Wap"}}
        if mode == JSAPI:
            if not req.payer_openid:
                raise _failed("下单", "JSAPI needs the payer's openid")
            kw["payer"] = {"openid": req.payer_openid}
        code, message = self._call("下单", self._pay.pay, **kw)
        data = self._json("下单", code, message)
        if mode == JSAPI:
            prepay_id = data.get("prepay_id")
            if not isinstance(prepay_id, str) or not prepay_id:
                raise _failed("下单", "no prepay_id in the answer")
            return PayTarget(mode, f"prepay_id={prepay_id}", self.bridge_call(f"prepay_id={prepay_id}"))
        url = data.get("code_url" if mode == NATIVE else "h5_url")
        if not isinstance(url, str) or not url:
            raise _failed("下单", "no payment link in the answer")
        return PayTarget(mode, url)

    def bridge_call(self, package: str) -> BridgeCall:
        """The JSAPI call for ``package`` ("prepay_id=…"), signed now with the merchant's private key
        (RSA-SHA256, base64, over ``appId\\ntimeStamp\\nnonceStr\\npackage\\n``: the SDK's ``sign``);
        signed afresh each time the page is shown, the prepay_id lives two hours."""
        stamp, nonce = str(int(time.time())), secrets.token_hex(16)
        return BridgeCall(self.appid, stamp, nonce, package, self._pay.sign([self.appid, stamp, nonce, package]))

    def _notice(self, resource: Mapping[str, Any], notify_id: str) -> Notice:
        amount = resource.get("amount") or {}
        paid_at = None
        if isinstance(resource.get("success_time"), str):
            try:
                paid_at = datetime.fromisoformat(resource["success_time"]).replace(tzinfo=None)
            except ValueError:
                paid_at = None
        total = amount.get("total")
        return Notice(notify_id=notify_id, out_trade_no=str(resource.get("out_trade_no", "")),
                      trade_state=str(resource.get("trade_state", "")),
                      transaction_id=str(resource.get("transaction_id", "")),
                      amount_fen=total if isinstance(total, int) and not isinstance(total, bool) else -1,
                      currency=str(amount.get("currency", "")), merchant_id=str(resource.get("mchid", "")),
                      paid_at=paid_at)

    def parse_callback(self, headers: dict[str, str], body: bytes) -> Notice | RefundNotice:
        """A payment (TRANSACTION.SUCCESS) or refund (REFUND.SUCCESS / ABNORMAL / CLOSED)
        notification, its signature verified and resource decrypted by the SDK."""
        lowered = {k.lower(): v for k, v in headers.items()}
        try:
            data = self._pay.callback(lowered, body)
        except Exception:  # an unknown algorithm or a malformed body
            data = None
        if not isinstance(data, dict) or not isinstance(data.get("resource"), dict):
            raise BadCallback(Text("微信支付通知的签名或内容无法验证", "the WeChat Pay notification could not be verified"),
                              code="bad_callback")
        if str(data.get("event_type", "")).startswith("REFUND."):
            return _refund_notice(data["resource"], str(data.get("id", "")))
        return self._notice(data["resource"], str(data.get("id", "")))

    def query(self, out_trade_no: str) -> Notice:
        code, message = self._call("查单", self._pay.query, out_trade_no=out_trade_no)
        return self._notice(self._json("查单", code, message), "")

    def close(self, out_trade_no: str) -> None:
        code, message = self._call("关单", self._pay.close, out_trade_no=out_trade_no)
        if code != 204:
            self._json("关单", code, message, ok=(204,))

    def refund(self, out_trade_no: str, out_refund_no: str, refund_fen: int, total_fen: int,
               reason: str) -> RefundResult:
        code, message = self._call("退款", self._pay.refund, out_refund_no=out_refund_no, out_trade_no=out_trade_no,
                                   amount={"refund": refund_fen, "total": total_fen, "currency": self.currency},
                                   reason=reason[:80] or None)
        return _refund_result(self._json("退款", code, message))

    def refund_query(self, out_trade_no: str, out_refund_no: str) -> RefundResult:
        """GET /v3/refund/domestic/refunds/{out_refund_no}: SUCCESS, PROCESSING, ABNORMAL (the
        payer's card could not take it: the merchant handles it in 商户平台) or CLOSED."""
        code, message = self._call("查询退款", self._pay.query_refund, out_refund_no=out_refund_no)
        if code == 404:  # RESOURCE_NOT_EXISTS: the refund request never reached WeChat Pay
            return RefundResult("", REFUND_NOT_FOUND)
        data = self._json("查询退款", code, message)
        if data.get("out_trade_no", out_trade_no) != out_trade_no:
            raise _failed("查询退款", "another order's refund")
        return _refund_result(data)

    def bill(self, day: date) -> list[BillLine]:
        code, message = self._call("申请账单", self._pay.trade_bill, bill_date=day.isoformat(), tar_type=None)
        url = self._json("申请账单", code, message).get("download_url")
        if not isinstance(url, str):
            raise _failed("申请账单", "no download_url")
        code, content = self._call("下载账单", self._pay.download_bill, url=url)
        if code != 200:
            raise _failed("下载账单", str(code))
        raw = content if isinstance(content, bytes) else str(content).encode("utf-8")
        if raw[:2] == b"\x1f\x8b":
            raw = gzip.decompress(raw)
        return _bill_lines(raw.decode("utf-8-sig"))


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else -1


def _refund_result(data: Mapping[str, Any]) -> RefundResult:
    """申请退款 and 查询单笔退款 answer the same refund object: its id, status and amount."""
    refund = _int((data.get("amount") or {}).get("refund"))
    return RefundResult(str(data.get("refund_id", "")), str(data.get("status", "")),
                        refund_fen=refund if refund >= 0 else None)


def _refund_notice(resource: Mapping[str, Any], notify_id: str) -> RefundNotice:
    amount = resource.get("amount") or {}
    return RefundNotice(notify_id=notify_id, out_trade_no=str(resource.get("out_trade_no", "")),
                        out_refund_no=str(resource.get("out_refund_no", "")),
                        refund_id=str(resource.get("refund_id", "")), status=str(resource.get("refund_status", "")),
                        refund_fen=_int(amount.get("refund")), total_fen=_int(amount.get("total")),
                        merchant_id=str(resource.get("mchid", "")))


def _bill_lines(text: str) -> list[BillLine]:
    """The trade bill's CSV: a header row, one row per trade (each value starts with a backquote),
    then a summary; only trade rows are read."""
    rows = list(csv.reader(io.StringIO(text)))
    if not rows:
        return []
    head = [h.strip() for h in rows[0]]
    try:
        i_txn, i_out, i_state, i_amount = (head.index("微信订单号"), head.index("商户订单号"),
                                           head.index("交易状态"), head.index("应结订单金额"))
    except ValueError:
        raise _failed("下载账单", "unexpected header") from None
    out: list[BillLine] = []
    for row in rows[1:]:
        if len(row) <= max(i_txn, i_out, i_state, i_amount) or not row[0].startswith("`"):
            continue
        amount = row[i_amount].strip().lstrip("`")
        fen = fen_of_yuan(amount.lstrip("-"))
        if fen is None:
            raise _failed("下载账单", f"bad amount {amount[:20]!r}")
        out.append(BillLine(row[i_out].lstrip("`"), row[i_txn].lstrip("`"), -fen if amount.startswith("-") else fen,
                            row[i_state].lstrip("`")))
    return out


def wechat_from_environment(env: Mapping[str, str]) -> WeChatPayProvider:
    """The merchant named by ``YISAI_WECHATPAY_*`` (docs/fees.md); a missing setting is named."""
    def need(key: str) -> str:
        return required(env, ENV + key)

    return WeChatPayProvider(
        mchid=need("MCHID"), appid=need("APPID"), cert_serial_no=need("CERT_SERIAL"),
        private_key=secret_file(env, ENV + "PRIVATE_KEY_FILE"), apiv3_key=secret_file(env, ENV + "APIV3_KEY_FILE"),
        notify_url=need("NOTIFY_URL"), gateway=env.get(ENV + "GATEWAY", "").strip() or GATEWAY,
        order_minutes=order_minutes(env, ENV), h5=env.get(ENV + "H5", "1").strip() != "0",
        jsapi=jsapi_configured(env), **_verification(env),
    )


class _Verification(TypedDict, total=False):
    public_key: str
    public_key_id: str
    cert_dir: str


def _verification(env: Mapping[str, str]) -> _Verification:
    """How answers and callbacks are verified, chosen by the settings present: the 微信支付公钥
    (``PUBLIC_KEY_FILE`` + ``PUBLIC_KEY_ID``) or the platform certificates (``CERT_DIR``, a
    directory the server may write the downloaded certificates to). Neither, or both, is refused
    naming the settings."""
    pk_file, pk_id, cert_dir = (ENV + k for k in ("PUBLIC_KEY_FILE", "PUBLIC_KEY_ID", "CERT_DIR"))
    has_pk = any(env.get(v, "").strip() for v in (pk_file, pk_id))
    folder = env.get(cert_dir, "").strip()
    if has_pk and folder:
        raise config_error(cert_dir, f"与 {pk_file}/{pk_id} 只能设置一种: 微信支付公钥模式或平台证书模式",
                           f"set either it or {pk_file}/{pk_id}: public-key mode or platform-certificate mode")
    if has_pk:
        return {"public_key": secret_file(env, pk_file), "public_key_id": required(env, pk_id)}
    if not folder:
        raise config_error(pk_file, f"未设置: 微信支付公钥模式需要 {pk_file} 与 {pk_id}, 平台证书模式需要 {cert_dir}",
                           f"not set: public-key mode needs {pk_file} and {pk_id}, platform-certificate mode {cert_dir}")
    path = Path(folder)
    if not path.is_dir() or not os.access(path, os.W_OK | os.X_OK):
        raise config_error(cert_dir, "应为服务器可写入的目录 (下载的平台证书存放在这里)",
                           "must be a directory the server can write to (the downloaded platform certificates go there)")
    return {"cert_dir": str(path)}


def jsapi_configured(env: Mapping[str, str]) -> bool:
    """JSAPI (paying inside WeChat) needs the 公众号's AppSecret to learn the payer's openid
    (``YISAI_WECHATPAY_MP_SECRET`` or ``…_FILE``); without it JSAPI is not offered."""
    return bool(env.get(ENV + "MP_SECRET", "").strip() or env.get(ENV + "MP_SECRET_FILE", "").strip())
