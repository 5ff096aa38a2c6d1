"""Alipay through its official SDK ``alipay-sdk-python`` (``alipay.aop.api``): 电脑网站支付 (page
pay, a PC's browser) and 手机网站支付 (wap pay, a phone's browser), the async notification, query,
close, refund and the daily bill's download address.

The SDK signs every request with the app's private key (RSA2: SHA256withRSA over the sorted
parameters) and checks the ``sign`` of every answer with Alipay's public key. A notification's
``sign`` is checked here with the SDK's own helper (``verify_with_rsa``) over the sorted parameters
less ``sign`` and ``sign_type``. Alipay speaks yuan with two decimals (``total_amount=2160.00``),
the ledger 分: converted by the digits as integers, never through a float or a decimal type.
``YISAI_ALIPAY_GATEWAY`` is the SDK's ``server_url`` (the sandbox, or the tests' local gateway).
"""

from __future__ import annotations

import base64
import csv
import io
import json
import urllib.request
import zipfile
from collections.abc import Mapping
from datetime import date, datetime
from http.client import HTTPConnection, HTTPSConnection
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from yisai.i18n import Text
from yisai.services.payments.alipay_cert import (
    CHANGED,
    AlipayCerts,
    cert_client,
    certs_from_environment,
)
from yisai.services.payments.base import (
    H5,
    PAGE,
    REFUND_NOT_FOUND,
    BadCallback,
    BillLine,
    Notice,
    OrderRequest,
    PayTarget,
    ProviderError,
    ProviderUnreachable,
    RefundResult,
)
from yisai.services.payments.config import config_error, order_minutes, required, secret_file
from yisai.vocabulary.money import fen_of_yuan, yuan_text

GATEWAY = "https://openapi.alipay.com/gateway.do"
ENV = "YISAI_ALIPAY_"
PRODUCT = {PAGE: "FAST_INSTANT_TRADE_PAY", H5: "QUICK_WAP_WAY"}
PAID_STATES = ("TRADE_SUCCESS", "TRADE_FINISHED")  # TRADE_FINISHED: paid, no refund possible any more
NOT_FOUND = "ACQ.TRADE_NOT_EXIST"  # page/wap pay: the trade exists at Alipay once the payer opened the cashier
MAX_BILL = 50 * 1024 * 1024  # a day's bill of one event is far smaller; refuse anything larger
ACK_OK, ACK_FAIL = "success", "fail"  # what Alipay expects as the notification's answer (text/plain)
# "服务不可用" (code 20000) and ACQ.SYSTEM_ERROR: Alipay asks for the same request again
RETRY_CODES, RETRY_SUB_CODES = ("20000",), ("ACQ.SYSTEM_ERROR", "isp.unknow-error", "aop.unknow-error")


def callback_answer(applied: bool) -> tuple[int, str]:
    """Status and body a site answers Alipay's notification with: ``success`` stops the retries
    (taken, or already taken), ``fail`` makes Alipay send it again later."""
    return (200, ACK_OK) if applied else (400, ACK_FAIL)


def _failed(what: str, detail: str, *, unreachable: bool = False) -> ProviderError:
    kind = ProviderUnreachable if unreachable else ProviderError
    return kind(Text(f"支付宝{what}失败: {detail}", f"Alipay {what} failed: {detail}"), code="alipay_failed")


def _sdk_failure(exc: BaseException) -> str:
    """A short reason from the SDK's exception, never its whole text (it holds the signed URL)."""
    text = str(exc)
    for marker, said in (("sign verify failed", "应答签名验证失败 (response signature)"),
                         ("connect failed", "无法连接网关 (cannot connect)"),
                         ("invalid http status", "网关应答异常 (HTTP status)"),
                         ("shape maybe illegal", "应答格式不对 (response shape)"),
                         ("request sign failed", "请求签名失败 (request signing)"),
                         (CHANGED, "应答由另一张支付宝公钥证书签名: 支付宝已更换证书, 请从开放平台下载新的支付宝公钥证书"
                                   " (alipay_cert_sn: Alipay's certificate changed)")):
        if marker in text:
            return said
    return type(exc).__name__


def _honour_port() -> None:
    """The SDK (3.7) connects to port 80/443 whatever ``server_url`` says, and fails on a URL that
    names a port (it adds an int to a str). A gateway on another port (a proxy; the tests' local
    gateway) needs the port kept: this wraps the SDK's connection helper once; a URL without a
    port goes through the SDK's own code as before."""
    from alipay.aop.api.util import WebUtils

    original = WebUtils.get_http_connection
    if getattr(original, "keeps_port", False):
        return

    def get_http_connection(url: str, query_string: str, timeout: int) -> tuple[str, HTTPConnection]:
        parts = urlsplit(url)
        if parts.port is None:
            return original(url, query_string, timeout)
        kind = HTTPSConnection if parts.scheme == "https" else HTTPConnection
        address = f"{parts.scheme}://{parts.hostname}:{parts.port}{parts.path}?{query_string}"
        return address, kind(host=parts.hostname or "", port=parts.port, timeout=timeout)

    get_http_connection.keeps_port = True  # type: ignore[attr-defined]
    WebUtils.get_http_connection = get_http_connection


def _rsa_private_pkcs1(text: str, var: str) -> str:
    """The 应用私钥 as the SDK reads it (PKCS#1 PEM), from PEM (PKCS#1 or PKCS#8) or the bare
    base64 that Alipay's key tool writes; refused with the setting's name, never the key."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    try:
        if "-----BEGIN" in text:
            key = serialization.load_pem_private_key(text.encode(), password=None)
        else:
            key = serialization.load_der_private_key(base64.b64decode("".join(text.split())), password=None)
    except (ValueError, TypeError):
        key = None
    if not isinstance(key, rsa.RSAPrivateKey) or key.key_size < 2048:
        raise _bad_key(var, "应为 RSA2048 应用私钥 (PEM 或密钥工具生成的文本)", "must be the app's RSA 2048 private key")
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL,
                             serialization.NoEncryption()).decode()


def _rsa_public_pem(text: str, var: str) -> str:
    """The 支付宝公钥 as PEM (SubjectPublicKeyInfo), from PEM or the bare base64 of the console."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    try:
        if "-----BEGIN" in text:
            key = serialization.load_pem_public_key(text.encode())
        else:
            key = serialization.load_der_public_key(base64.b64decode("".join(text.split())))
    except (ValueError, TypeError):
        key = None
    if not isinstance(key, rsa.RSAPublicKey):
        raise _bad_key(var, "应为支付宝公钥 (RSA, PEM 或开放平台显示的文本)", "must be Alipay's RSA public key")
    return key.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode()


def _bad_key(var: str, zh: str, en: str) -> ProviderError:
    return ProviderError(Text(f"支付设置 {var}: {zh}", f"payment setting {var}: {en}"), code="bad_payment_config")


class AlipayProvider:
    """One Alipay app (应用 APPID) with 电脑网站支付 and 手机网站支付 signed."""

    name = "alipay"
    label = Text("支付宝", "Alipay")
    currency = "CNY"

    def __init__(self, *, app_id: str, private_key: str, notify_url: str, alipay_public_key: str = "",
                 certs: AlipayCerts | None = None, return_url: str = "", seller_id: str = "",
                 gateway: str = GATEWAY, order_minutes: int = 30, timeout: int = 10, wap: bool = True) -> None:
        """普通公钥模式 (``alipay_public_key``) or 公钥证书模式 (``certs``: alipay_cert.py)."""
        from alipay.aop.api.AlipayClientConfig import AlipayClientConfig
        from alipay.aop.api.DefaultAlipayClient import DefaultAlipayClient

        _honour_port()
        self.merchant_id, self.seller_id, self.order_minutes = app_id, seller_id, order_minutes
        self._notify_url, self._return_url, self._wap = notify_url, return_url, wap
        self._public_key = certs.alipay_public_key if certs else _rsa_public_pem(alipay_public_key,
                                                                                 ENV + "PUBLIC_KEY_FILE")
        config = AlipayClientConfig()
        config.server_url, config.app_id, config.sign_type, config.charset = gateway, app_id, "RSA2", "utf-8"
        config.app_private_key = _rsa_private_pkcs1(private_key, ENV + "PRIVATE_KEY_FILE")
        config.alipay_public_key = self._public_key
        config.timeout = timeout
        if certs and not certs.pairs_with(config.app_private_key):
            raise _bad_key(ENV + "APP_CERT_FILE", f"证书中的应用公钥与 {ENV}PRIVATE_KEY_FILE 的应用私钥不是一对",
                           f"the certificate's key does not pair with the private key in {ENV}PRIVATE_KEY_FILE")
        # no logger: its lines hold signed URLs
        self._client = cert_client(config, certs) if certs else DefaultAlipayClient(config, logger=None)

    def __repr__(self) -> str:
        return f"AlipayProvider(app_id={self.merchant_id})"

    @property
    def modes(self) -> tuple[str, ...]:
        return (PAGE, H5) if self._wap else (PAGE,)

    # ----- orders -----------------------------------------------------------------------------------
    def create_order(self, req: OrderRequest, mode: str) -> PayTarget:
        """The cashier's address (alipay.trade.page.pay / wap.pay, signed, GET): the payer's browser
        opens it; nothing is sent to Alipay before that."""
        from alipay.aop.api.domain.AlipayTradePagePayModel import AlipayTradePagePayModel
        from alipay.aop.api.domain.AlipayTradeWapPayModel import AlipayTradeWapPayModel
        from alipay.aop.api.request.AlipayTradePagePayRequest import AlipayTradePagePayRequest
        from alipay.aop.api.request.AlipayTradeWapPayRequest import AlipayTradeWapPayRequest

        if mode not in PRODUCT:
            raise _failed("下单", f"mode {mode}")
        model: Any = AlipayTradePagePayModel() if mode == PAGE else AlipayTradeWapPayModel()
        model.out_trade_no, model.product_code = req.out_trade_no, PRODUCT[mode]
        model.total_amount = yuan_text(req.amount_fen)  # 216000 分 → "2160.00"
        model.subject = req.description[:256]
        model.time_expire = req.expires_at.strftime("%Y-%m-%d %H:%M:%S")  # Beijing time, as Alipay reads it
        request: Any = AlipayTradePagePayRequest(biz_model=model) if mode == PAGE \
            else AlipayTradeWapPayRequest(biz_model=model)
        request.notify_url = self._notify_url
        if self._return_url:
            request.return_url = self._return_url
        try:
            url = self._client.page_execute(request, http_method="GET")
        except Exception as exc:  # the SDK raises its own exceptions for a key it cannot use
            raise _failed("下单", _sdk_failure(exc)) from None
        return PayTarget(mode, str(url))

    def _execute(self, what: str, request: Any) -> dict[str, Any]:
        """One API call: the SDK signs it, posts it and verifies the answer's ``sign``."""
        try:
            answer = self._client.execute(request)
        except Exception as exc:  # network errors and "response sign verify failed": no answer to act on
            raise _failed(what, _sdk_failure(exc), unreachable=True) from None
        try:
            data = json.loads(answer)
        except (TypeError, ValueError):
            raise _failed(what, "answer is not JSON") from None
        if not isinstance(data, dict):
            raise _failed(what, "answer is not an object")
        return data

    @staticmethod
    def _refused(what: str, data: Mapping[str, Any]) -> ProviderError:
        detail = " ".join(str(data.get(k, "")) for k in ("code", "sub_code", "sub_msg") if data.get(k))
        again = data.get("code") in RETRY_CODES or data.get("sub_code") in RETRY_SUB_CODES
        return _failed(what, detail or "no code", unreachable=again)

    def _notice(self, data: Mapping[str, Any], notify_id: str, merchant_id: str) -> Notice:
        status = str(data.get("trade_status", ""))
        paid_at = None
        for key in ("gmt_payment", "send_pay_date"):
            if isinstance(data.get(key), str):
                try:
                    paid_at = datetime.strptime(data[key], "%Y-%m-%d %H:%M:%S")
                    break
                except ValueError:
                    pass
        fen = fen_of_yuan(str(data.get("total_amount", "")))
        return Notice(notify_id=notify_id, out_trade_no=str(data.get("out_trade_no", "")),
                      trade_state="SUCCESS" if status in PAID_STATES else (status or "NOTPAY"),
                      transaction_id=str(data.get("trade_no", "")), amount_fen=-1 if fen is None else fen,
                      currency=self.currency, merchant_id=merchant_id, paid_at=paid_at)

    # ----- the async notification -------------------------------------------------------------------
    def parse_callback(self, headers: dict[str, str], body: bytes) -> Notice:
        """A form-encoded ``trade_status_sync`` notification: its RSA2 ``sign`` checked with
        Alipay's public key; the merchant it names is its ``app_id`` (and ``seller_id`` when one is
        configured), compared with ours by the flow."""
        from alipay.aop.api.util.SignatureUtils import get_sign_content, verify_with_rsa

        bad = BadCallback(Text("支付宝通知的签名或内容无法验证", "the Alipay notification could not be verified"),
                          code="bad_callback")
        try:
            pairs = parse_qsl(body.decode("ascii"), keep_blank_values=True, strict_parsing=True,
                              encoding="utf-8", errors="strict")
        except (UnicodeDecodeError, ValueError):
            raise bad from None
        params = dict(pairs)
        if len(params) != len(pairs) or params.get("sign_type") != "RSA2" or not params.get("sign") \
                or params.get("charset", "utf-8").lower() not in ("utf-8", "utf8"):
            raise bad
        signed = {k: v for k, v in params.items() if k not in ("sign", "sign_type") and v != ""}
        try:
            ok = verify_with_rsa(self._public_key, get_sign_content(signed).encode("utf-8"), params["sign"])
        except Exception:  # rsa.VerificationError, a sign that is not base64
            ok = False
        if not ok or params.get("notify_type") != "trade_status_sync" or not params.get("notify_id"):
            raise bad
        app_id, seller = params.get("app_id", ""), params.get("seller_id", "")
        merchant = app_id if not self.seller_id or seller == self.seller_id else f"{app_id}/{seller}"
        return self._notice(params, params["notify_id"][:64], merchant)

    # ----- query, close, refund, bill ---------------------------------------------------------------
    def query(self, out_trade_no: str) -> Notice:
        """alipay.trade.query; a trade Alipay does not know yet (the cashier never opened) is NOTPAY."""
        from alipay.aop.api.domain.AlipayTradeQueryModel import AlipayTradeQueryModel
        from alipay.aop.api.request.AlipayTradeQueryRequest import AlipayTradeQueryRequest

        model = AlipayTradeQueryModel()
        model.out_trade_no = out_trade_no
        data = self._execute("查单", AlipayTradeQueryRequest(biz_model=model))
        if data.get("code") != "10000":
            if data.get("sub_code") == NOT_FOUND:
                return Notice("", out_trade_no, "NOTPAY", "", -1, self.currency, self.merchant_id)
            raise self._refused("查单", data)
        return self._notice(data, "", self.merchant_id)  # the answer is signed for our own app

    def close(self, out_trade_no: str) -> None:
        """alipay.trade.close; nothing to close when the payer never opened the cashier (the order's
        ``time_expire`` keeps its link dead)."""
        from alipay.aop.api.domain.AlipayTradeCloseModel import AlipayTradeCloseModel
        from alipay.aop.api.request.AlipayTradeCloseRequest import AlipayTradeCloseRequest

        model = AlipayTradeCloseModel()
        model.out_trade_no = out_trade_no
        data = self._execute("关单", AlipayTradeCloseRequest(biz_model=model))
        if data.get("code") != "10000" and data.get("sub_code") != NOT_FOUND:
            raise self._refused("关单", data)

    def refund(self, out_trade_no: str, out_refund_no: str, refund_fen: int, total_fen: int,
               reason: str) -> RefundResult:
        """alipay.trade.refund with ``out_request_no`` (a repeated request refunds once). The
        refund is known by the trade number and our request number; ``fund_change=Y`` says the
        money moved, ``N`` that it did not (yet): processing."""
        from alipay.aop.api.domain.AlipayTradeRefundModel import AlipayTradeRefundModel
        from alipay.aop.api.request.AlipayTradeRefundRequest import AlipayTradeRefundRequest

        model = AlipayTradeRefundModel()
        model.out_trade_no, model.out_request_no = out_trade_no, out_refund_no
        model.refund_amount = yuan_text(refund_fen)
        model.refund_reason = reason[:256] or None
        data = self._execute("退款", AlipayTradeRefundRequest(biz_model=model))
        if data.get("code") != "10000":
            raise self._refused("退款", data)
        return RefundResult(str(data.get("trade_no", ""))[:64], "SUCCESS" if data.get("fund_change") == "Y" else "PROCESSING")

    def refund_query(self, out_trade_no: str, out_refund_no: str) -> RefundResult:
        """alipay.trade.fastpay.refund.query: ``refund_status = REFUND_SUCCESS`` once the money
        went back; absent while it has not ("退款请求未收到或者退款失败"): NOT_FOUND, and the flow sends
        the refund again with the same ``out_request_no`` as Alipay's document says (a refund Alipay
        holds answers ``fund_change = N`` and stays processing; Alipay: query 10 s or more after)."""
        from alipay.aop.api.domain.AlipayTradeFastpayRefundQueryModel import (
            AlipayTradeFastpayRefundQueryModel,
        )
        from alipay.aop.api.request.AlipayTradeFastpayRefundQueryRequest import (
            AlipayTradeFastpayRefundQueryRequest,
        )

        model = AlipayTradeFastpayRefundQueryModel()
        model.out_trade_no, model.out_request_no = out_trade_no, out_refund_no
        data = self._execute("查询退款", AlipayTradeFastpayRefundQueryRequest(biz_model=model))
        if data.get("code") != "10000":
            raise self._refused("查询退款", data)
        if data.get("refund_status") == "REFUND_SUCCESS" and data.get("out_request_no", out_refund_no) == out_refund_no:
            return RefundResult(str(data.get("trade_no", ""))[:64], "SUCCESS",
                                refund_fen=fen_of_yuan(str(data.get("refund_amount", ""))))
        return RefundResult(str(data.get("trade_no", ""))[:64], REFUND_NOT_FOUND)

    def bill_url(self, day: date) -> str:
        """alipay.data.dataservice.bill.downloadurl.query: the day's trade bill (a zip, 30 s valid)."""
        from alipay.aop.api.domain.AlipayDataDataserviceBillDownloadurlQueryModel import (
            AlipayDataDataserviceBillDownloadurlQueryModel,
        )
        from alipay.aop.api.request.AlipayDataDataserviceBillDownloadurlQueryRequest import (
            AlipayDataDataserviceBillDownloadurlQueryRequest,
        )

        model = AlipayDataDataserviceBillDownloadurlQueryModel()
        model.bill_type, model.bill_date = "trade", day.isoformat()
        data = self._execute("申请账单", AlipayDataDataserviceBillDownloadurlQueryRequest(biz_model=model))
        url = data.get("bill_download_url")
        if data.get("code") != "10000" or not isinstance(url, str) or not url.startswith(("https://", "http://")):
            raise self._refused("申请账单", data)
        return url

    def bill(self, day: date) -> list[BillLine]:
        url = self.bill_url(day)
        try:
            with urllib.request.urlopen(url, timeout=30) as answer:  # the address is http(s), checked above
                raw = answer.read(MAX_BILL + 1)
        except OSError as exc:
            raise _failed("下载账单", type(exc).__name__) from None
        if len(raw) > MAX_BILL:
            raise _failed("下载账单", "the bill is too large")
        return bill_lines(raw)


def bill_lines(raw: bytes) -> list[BillLine]:
    """The bill zip's ``…业务明细.csv`` (GBK): comment lines start with ``#``, then a header row,
    one row per trade or refund, then ``#`` totals. A refund's amount is negative."""
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as bundle:
            names = [n for n in bundle.namelist() if n.endswith(".csv") and "汇总" not in n]
            text = bundle.read(names[0]).decode("gbk") if names else ""
    except (zipfile.BadZipFile, UnicodeDecodeError, KeyError):
        raise _failed("下载账单", "not a bill zip") from None
    rows = [r for r in csv.reader(io.StringIO(text)) if r and not r[0].lstrip().startswith("#")]
    if not rows:
        return []
    head = [h.strip() for h in rows[0]]
    try:
        i_txn, i_out, i_kind, i_amount = (head.index("支付宝交易号"), head.index("商户订单号"),
                                          head.index("业务类型"), head.index("订单金额（元）"))
    except ValueError:
        raise _failed("下载账单", "unexpected header") from None
    out: list[BillLine] = []
    for row in rows[1:]:
        if len(row) <= max(i_txn, i_out, i_kind, i_amount):
            continue
        amount = row[i_amount].strip()
        fen = fen_of_yuan(amount.lstrip("-"))
        if fen is None:  # a row left out would hide a difference: refused, as WeChat Pay's bill is
            raise _failed("下载账单", f"bad amount {amount[:20]!r}")
        kind = row[i_kind].strip()
        out.append(BillLine(row[i_out].strip(), row[i_txn].strip(), -fen if amount.startswith("-") else fen,
                            "REFUND" if kind == "退款" else "SUCCESS"))
    return out


def alipay_from_environment(env: Mapping[str, str]) -> AlipayProvider:
    """The app named by ``YISAI_ALIPAY_*`` (docs/fees.md); a missing or wrong setting is named."""
    def need(key: str) -> str:
        return required(env, ENV + key)

    gateway = env.get(ENV + "GATEWAY", "").strip() or GATEWAY
    if not gateway.startswith(("https://", "http://")):
        raise ProviderError(Text(f"支付设置 {ENV}GATEWAY 应为 https:// 开头的网关地址",
                                 f"payment setting {ENV}GATEWAY must be the gateway's https:// address"),
                            code="bad_payment_config")
    return AlipayProvider(
        app_id=need("APP_ID"), private_key=secret_file(env, ENV + "PRIVATE_KEY_FILE"), notify_url=need("NOTIFY_URL"),
        return_url=env.get(ENV + "RETURN_URL", "").strip(), seller_id=env.get(ENV + "SELLER_ID", "").strip(),
        gateway=gateway, order_minutes=order_minutes(env, ENV), wap=env.get(ENV + "WAP", "1").strip() != "0",
        **_verification(env),
    )


def _verification(env: Mapping[str, str]) -> dict[str, Any]:
    """普通公钥模式 (``PUBLIC_KEY_FILE``, the 支付宝公钥) or 公钥证书模式 (the three certificate
    files), chosen by the settings present; neither, or both, is refused naming them."""
    key_var = ENV + "PUBLIC_KEY_FILE"
    cert_vars = [ENV + k for k in ("APP_CERT_FILE", "PUBLIC_CERT_FILE", "ROOT_CERT_FILE")]
    has_key, has_certs = bool(env.get(key_var, "").strip()), any(env.get(v, "").strip() for v in cert_vars)
    if has_key and has_certs:
        raise config_error(key_var, f"与 {'/'.join(cert_vars)} 只能设置一种: 普通公钥模式或公钥证书模式",
                           f"set either it or {'/'.join(cert_vars)}: public-key mode or certificate mode")
    if has_certs:
        return {"certs": certs_from_environment(env, ENV)}
    if not has_key:
        raise config_error(key_var, f"未设置: 普通公钥模式需要它 (支付宝公钥), 公钥证书模式需要 {'、'.join(cert_vars)}",
                           f"not set: public-key mode needs it (Alipay's public key), certificate mode {', '.join(cert_vars)}")
    return {"alipay_public_key": secret_file(env, key_var)}
