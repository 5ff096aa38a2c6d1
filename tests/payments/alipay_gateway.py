"""A protocol-faithful Alipay open-platform gateway on 127.0.0.1, from Alipay's published documents
(自行实现签名 / 自行实现验签 / 电脑网站支付 alipay.trade.page.pay / 手机网站支付 alipay.trade.wap.pay /
异步通知 / alipay.trade.query / alipay.trade.close / alipay.trade.refund /
alipay.trade.fastpay.refund.query / alipay.data.dataservice.bill.downloadurl.query). Written from the documents with ``cryptography``,
not with the SDK's code, so the SDK is checked against an independent implementation.

What it checks, as the real gateway does:
* every request's ``sign``: RSA2 (SHA256withRSA, PKCS#1 v1.5) over the parameters other than
  ``sign``, empty ones left out, sorted by name and joined as ``k=v&k=v``, with the app's public key
  (the one uploaded to the open platform): ``40002 isv.invalid-signature`` otherwise;
* the common parameters: ``app_id`` (``isv.invalid-app-id``), ``sign_type=RSA2``, ``charset=utf-8``,
  ``format=json``, ``version=1.0``, ``timestamp`` as ``yyyy-MM-dd HH:mm:ss``, a known ``method``;
* an order's fields: ``out_trade_no`` ≤ 64 letters/digits/underscores, ``total_amount`` in yuan with
  at most two decimals from 0.01 to 100000000, ``subject``, the ``product_code`` of the method,
  ``time_expire``, ``notify_url``; a refund no larger than what is left, idempotent per
  ``out_request_no`` (the same request again: ``fund_change = N``, nothing moves twice);
* a refund query by ``out_trade_no`` and ``out_request_no``: ``refund_status = REFUND_SUCCESS``
  once the money went back, the field absent while it has not ("未返回该字段表示退款请求未收到或者
  退款失败").

What a test can make of it: refunds taken but not yet paid out (``refunds_pending``: answered
``fund_change = N``, finished by ``finish_refunds``), refunds refused (``refuse_refunds``: code,
sub_code, sub_msg), a gateway that cannot be reached (``down``: the connection dropped unanswered).

What it sends, as the real gateway does: each answer as ``{"<method>_response": {...}, "sign": …}``
with ``sign`` RSA2 over the exact text of the inner object by Alipay's key; on ``notify()`` a
form-encoded ``trade_status_sync`` notification signed by Alipay's key over the parameters less
``sign`` and ``sign_type``, POSTed to the order's ``notify_url``. Keys are generated per run.

公钥证书模式 (``Keys(mode=CERTIFICATE)``): the app's key and Alipay's key come in certificates
issued at test time by an Ant-Financial-like chain (two RSA roots and an elliptic-curve one, an
intermediate CA, the two leaf certificates); every request must carry ``app_cert_sn`` (the SN of
the app certificate Alipay issued: ``isv.missing-app-cert-sn`` / ``isv.app-cert-not-exist``)
and ``alipay_root_cert_sn`` (the root chain's RSA certificates' SNs joined by ``_``:
``isv.missing-alipay-root-cert-sn`` / ``isv.invalid-alipay-root-cert-sn``), and every answer
carries ``alipay_cert_sn`` between the response object and ``sign``. An SN is the MD5 (hex) of
the issuer's name, most specific part first (``CN=…,OU=…,O=…,C=CN``), and the serial in decimal.
"""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import json
import re
import secrets
import threading
import urllib.request
import zipfile
from dataclasses import dataclass, field, replace
from datetime import datetime
from decimal import Decimal
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa

from tests.payments.certs import Issued, issue

APP_ID = "2021000149600001"
SELLER_ID = "2088621000000001"  # the merchant's PID
METHODS = {"alipay.trade.page.pay", "alipay.trade.wap.pay", "alipay.trade.query", "alipay.trade.close",
           "alipay.trade.refund", "alipay.trade.fastpay.refund.query", "alipay.data.dataservice.bill.downloadurl.query"}
PRODUCT = {"alipay.trade.page.pay": "FAST_INSTANT_TRADE_PAY", "alipay.trade.wap.pay": "QUICK_WAP_WAY"}
AMOUNT = re.compile(r"(0|[1-9][0-9]{0,8})(\.[0-9]{1,2})?")
STAMP = "%Y-%m-%d %H:%M:%S"
PUBLIC_KEY, CERTIFICATE = "public_key", "certificate"  # 普通公钥模式, 公钥证书模式
ANT_R1 = "C=CN,O=Ant Financial,OU=Certification Authority,CN=Ant Financial Certification Authority R1"
ITRUS = "C=CN,O=iTrusChina,OU=China Trust Network,CN=iTrusChina Class 2 Root CA - G3"
NRCAC = "C=CN,O=NRCAC,CN=ROOTCA"  # an SM2 root in the real chain; elliptic-curve here: not counted
ANT_CLASS2 = "C=CN,O=Ant Financial,OU=Certification Authority,CN=Ant Financial Certification Authority Class 2 R1"
APP_SUBJECT = f"C=CN,O=弈赛测试,OU=Alipay,CN={APP_ID}"
ALIPAY_SUBJECT = "C=CN,O=支付宝(杭州)信息技术有限公司,OU=Alipay,CN=支付宝(杭州)信息技术有限公司"
APP_CERT_SERIAL, ALIPAY_CERT_SERIAL, ANT_R1_SERIAL, ITRUS_SERIAL = 2021041300001, 2025041000001, 101, 202
SUB_MSG = {"isv.missing-app-cert-sn": "缺少应用公钥证书序列号", "isv.app-cert-not-exist": "应用公钥证书不存在",
           "isv.missing-alipay-root-cert-sn": "缺少支付宝根证书序列号",
           "isv.invalid-alipay-root-cert-sn": "无效的支付宝根证书序列号"}


def new_key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def sign_content(params: dict[str, str]) -> str:
    """Alipay's string to sign: no ``sign`` (nor ``sign_type`` for a notification), no empty value,
    sorted by name, ``k=v`` joined by ``&``."""
    return "&".join(f"{k}={v}" for k, v in sorted(params.items()) if v != "")


def rsa2(key: rsa.RSAPrivateKey, text: str) -> str:
    return base64.b64encode(key.sign(text.encode("utf-8"), padding.PKCS1v15(), hashes.SHA256())).decode()


def rsa2_ok(key: rsa.RSAPrivateKey, text: str, sign: str) -> bool:
    try:
        key.public_key().verify(base64.b64decode(sign), text.encode("utf-8"), padding.PKCS1v15(), hashes.SHA256())
    except (InvalidSignature, ValueError):
        return False
    return True


def fen(yuan: str) -> int:
    return int(Decimal(yuan) * 100)


def yuan(amount_fen: int) -> str:
    return f"{amount_fen // 100}.{amount_fen % 100:02d}"


def cert_sn(cert: x509.Certificate) -> str:
    """Alipay's certificate SN: MD5 hex of the issuer's name (``CN=…,OU=…,O=…,C=CN``) + the serial."""
    return hashlib.md5((cert.issuer.rfc4514_string() + str(cert.serial_number)).encode()).hexdigest()


@dataclass
class Chain:
    """The certificates of the 公钥证书模式: roots, the intermediate CA, the app's and Alipay's."""

    roots: list[Issued]
    ca: Issued
    app: Issued
    alipay: Issued

    @classmethod
    def issued(cls, app: rsa.RSAPrivateKey, alipay: rsa.RSAPrivateKey) -> Chain:
        r1, itrus = issue(ANT_R1, new_key(), serial=ANT_R1_SERIAL, ca=True), issue(ITRUS, new_key(), serial=ITRUS_SERIAL, ca=True)
        nrcac = issue(NRCAC, ec.generate_private_key(ec.SECP256R1()), ca=True)
        ca = issue(ANT_CLASS2, new_key(), r1, ca=True)
        return cls([r1, nrcac, itrus], ca, issue(APP_SUBJECT, app, ca, serial=APP_CERT_SERIAL),
                   issue(ALIPAY_SUBJECT, alipay, ca, serial=ALIPAY_CERT_SERIAL))

    @property
    def root_sn(self) -> str:
        return "_".join(cert_sn(r.cert) for r in self.roots if isinstance(r.key, rsa.RSAPrivateKey))


@dataclass
class Keys:
    """The app's key pair (应用私钥 stays with the merchant, 应用公钥 is uploaded to Alipay) and
    Alipay's key pair (支付宝公钥 is what the merchant downloads). Generated per test run."""

    app: rsa.RSAPrivateKey = field(default_factory=new_key)
    alipay: rsa.RSAPrivateKey = field(default_factory=new_key)
    mode: str = PUBLIC_KEY
    chain: Chain | None = None  # CERTIFICATE mode

    def __post_init__(self) -> None:
        if self.mode == CERTIFICATE and self.chain is None:
            self.chain = Chain.issued(self.app, self.alipay)

    def other_app_cert(self, app: rsa.RSAPrivateKey | None = None) -> Keys:
        """The merchant holding an app certificate Alipay does not know (one it has replaced, or
        one for another key): the same chain otherwise."""
        assert self.chain is not None
        key = app or self.app
        cert = issue(APP_SUBJECT, key, self.chain.ca, serial=APP_CERT_SERIAL + 1)
        return Keys(app=key, alipay=self.alipay, mode=CERTIFICATE, chain=replace(self.chain, app=cert))

    def renew_alipay_cert(self) -> None:
        """Alipay signs with a new key under a new certificate (what the merchant has is now old)."""
        assert self.chain is not None
        self.alipay = new_key()
        self.chain.alipay = issue(ALIPAY_SUBJECT, self.alipay, self.chain.ca)

    def environment(self, folder: Path, gateway: str, notify_url: str, app: rsa.RSAPrivateKey | None = None,
                    pkcs8: bool = False) -> dict[str, str]:
        """The settings docs/fees.md names, the key files written to ``folder`` (tmp): the private
        key as PKCS#1 PEM, or (``pkcs8``) as the bare base64 PKCS#8 that Alipay's key tool writes for
        Java; the public key as the bare base64 the open platform shows."""
        key = app or self.app
        if pkcs8:
            der = key.private_bytes(serialization.Encoding.DER, serialization.PrivateFormat.PKCS8,
                                    serialization.NoEncryption())
            private = base64.b64encode(der).decode()
        else:
            private = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL,
                                        serialization.NoEncryption()).decode()
        public = base64.b64encode(self.alipay.public_key().public_bytes(
            serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)).decode()
        (folder / "app_private_key.txt").write_text(private)
        env = {"YISAI_ALIPAY_APP_ID": APP_ID, "YISAI_ALIPAY_SELLER_ID": SELLER_ID,
               "YISAI_ALIPAY_PRIVATE_KEY_FILE": str(folder / "app_private_key.txt"),
               "YISAI_ALIPAY_NOTIFY_URL": notify_url, "YISAI_ALIPAY_GATEWAY": gateway}
        if self.chain is not None:  # the three files the open platform gives, each leaf with its issuer
            c = self.chain
            files = {"YISAI_ALIPAY_APP_CERT_FILE": (f"appCertPublicKey_{APP_ID}.crt", c.app.pem + c.ca.pem),
                     "YISAI_ALIPAY_PUBLIC_CERT_FILE": ("alipayCertPublicKey_RSA2.crt", c.alipay.pem + c.ca.pem),
                     "YISAI_ALIPAY_ROOT_CERT_FILE": ("alipayRootCert.crt", "".join(r.pem for r in c.roots))}
            for var, (file_name, text) in files.items():
                (folder / file_name).write_text(text)
                env[var] = str(folder / file_name)
            return env
        (folder / "alipay_public_key.txt").write_text(public)
        return env | {"YISAI_ALIPAY_PUBLIC_KEY_FILE": str(folder / "alipay_public_key.txt")}


class AlipayGateway:
    """The gateway and its state: trades by out_trade_no, refunds, and every request it refused."""

    def __init__(self, keys: Keys) -> None:
        self.keys = keys
        self.trades: dict[str, dict[str, Any]] = {}
        self.refunds: dict[tuple[str, str], int] = {}  # (out_trade_no, out_request_no) → 分
        self.refunds_paid: set[tuple[str, str]] = set()  # those whose money went back (the others: pending)
        self.refunds_pending = False  # new refunds are taken but not paid out yet (fund_change = N)
        self.refuse_refunds: tuple[str, str, str] | None = None  # (code, sub_code, sub_msg) for each new refund
        self.down = False  # every connection dropped unanswered: the gateway cannot be reached
        self.refused: list[str] = []
        self.calls: list[str] = []  # the methods asked, in order
        self._bills: dict[str, bytes] = {}
        self._lock = threading.Lock()
        gateway = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def _answer(self, status: int, payload: bytes, ctype: str) -> None:
                self.send_response(status)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def do_GET(self) -> None:
                url = urlsplit(self.path)
                if url.path.startswith("/bill/"):
                    found = gateway._bills.pop(url.path.removeprefix("/bill/"), None)  # valid once
                    self._answer(200 if found else 404, found or b"", "application/zip")
                    return
                if url.path != "/gateway.do":  # a browser's /favicon.ico and the like
                    self._answer(404, b"", "text/plain")
                    return
                status, page = gateway.cashier(dict(parse_qsl(url.query, keep_blank_values=True)))
                self._answer(status, page.encode("utf-8"), "text/html; charset=utf-8")

            def do_POST(self) -> None:
                if gateway.down:  # no answer at all: the client sees the connection closed
                    self.close_connection = True
                    return
                url = urlsplit(self.path)
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length).decode("ascii") if length else ""
                params = dict(parse_qsl(url.query, keep_blank_values=True))
                params.update(parse_qsl(body, keep_blank_values=True))
                text = gateway.api(params, f"http://{self.headers.get('Host', '')}")
                self._answer(200, text.encode("utf-8"), "text/html;charset=utf-8")  # as Alipay labels it

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/gateway.do"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> AlipayGateway:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=10)

    # ----- the request's signature and common parameters --------------------------------------------
    def _checked(self, params: dict[str, str]) -> str | None:
        """None when the request is the app's and well formed, else the sub_code refusing it."""
        if params.get("app_id") != APP_ID:
            return "isv.invalid-app-id"
        if params.get("method") not in METHODS:
            return "isv.invalid-method"
        if params.get("sign_type") != "RSA2":
            return "isv.invalid-signature-type"
        chain = self.keys.chain
        if chain is not None:  # 公钥证书模式: the certificates the request names must be the app's and the roots
            if not params.get("app_cert_sn"):
                return "isv.missing-app-cert-sn"
            if params["app_cert_sn"] != cert_sn(chain.app.cert):
                return "isv.app-cert-not-exist"
            if not params.get("alipay_root_cert_sn"):
                return "isv.missing-alipay-root-cert-sn"
            if params["alipay_root_cert_sn"] != chain.root_sn:
                return "isv.invalid-alipay-root-cert-sn"
        if params.get("charset", "").lower() != "utf-8" or params.get("format", "json") != "json":
            return "isv.invalid-charset"
        if params.get("version") != "1.0":
            return "isv.invalid-parameter"
        try:
            datetime.strptime(params.get("timestamp", ""), STAMP)
        except ValueError:
            return "isv.invalid-timestamp"
        unsigned = {k: v for k, v in params.items() if k != "sign"}
        if not rsa2_ok(self.keys.app, sign_content(unsigned), params.get("sign", "")):
            return "isv.invalid-signature"
        return None

    def _respond(self, method: str, body: dict[str, Any]) -> str:
        inner = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
        key = method.replace(".", "_") + "_response"
        if self.keys.chain is not None:  # which certificate signed: between the response and sign, as Alipay puts it
            sn = cert_sn(self.keys.chain.alipay.cert)
            return f'{{"{key}":{inner},"alipay_cert_sn":"{sn}","sign":"{rsa2(self.keys.alipay, inner)}"}}'
        return f'{{"{key}":{inner},"sign":"{rsa2(self.keys.alipay, inner)}"}}'

    @staticmethod
    def _fail(code: str, sub_code: str, sub_msg: str) -> dict[str, Any]:
        msg = "Invalid Arguments" if code == "40002" else "Business Failed"
        return {"code": code, "msg": msg, "sub_code": sub_code, "sub_msg": sub_msg}

    # ----- the cashier: page and wap pay -------------------------------------------------------------
    def cashier(self, params: dict[str, str]) -> tuple[int, str]:
        """The payer's browser opens the signed link: the trade is created (WAIT_BUYER_PAY)."""
        why = self._checked(params)
        method = params.get("method", "")
        if why is None and method not in PRODUCT:
            why = "isv.invalid-method"
        biz: dict[str, Any] = {}
        if why is None:
            try:
                biz = json.loads(params.get("biz_content", ""))
            except ValueError:
                why = "isv.invalid-biz-content"
        if why is None:
            why = self._order_fields(method, biz, params)
        if why is not None:
            self.refused.append(why)
            return 200, f"<html><body><h1>支付宝 - 出错了</h1><p>错误代码 {why} {SUB_MSG.get(why, '')}</p></body></html>"
        with self._lock:
            self.calls.append(method)
            trade = self.trades.get(biz["out_trade_no"])
            if trade is None:
                self.trades[biz["out_trade_no"]] = {
                    "kind": PRODUCT[method], "total": fen(biz["total_amount"]), "subject": biz["subject"],
                    "notify_url": params["notify_url"], "time_expire": biz["time_expire"],
                    "state": "WAIT_BUYER_PAY", "trade_no": "", "refunded": 0, "notified": 0}
        return 200, f"<html><body><h1>支付宝收银台</h1><p>{biz['subject']} ¥{biz['total_amount']}</p></body></html>"

    @staticmethod
    def _order_fields(method: str, biz: dict[str, Any], params: dict[str, str]) -> str | None:
        out = biz.get("out_trade_no")
        if not isinstance(out, str) or not re.fullmatch(r"[A-Za-z0-9_]{1,64}", out):
            return "isv.invalid-out-trade-no"
        amount = biz.get("total_amount")
        if not isinstance(amount, str) or not AMOUNT.fullmatch(amount) or not 1 <= fen(amount) <= 10_000_000_000:
            return "isv.invalid-total-amount"
        if not isinstance(biz.get("subject"), str) or not 0 < len(biz["subject"]) <= 256:
            return "isv.missing-subject"
        if biz.get("product_code") != PRODUCT[method]:
            return "isv.invalid-product-code"
        try:
            datetime.strptime(str(biz.get("time_expire", "")), STAMP)
        except ValueError:
            return "isv.invalid-time-expire"
        if not params.get("notify_url", "").startswith(("http://", "https://")):
            return "isv.invalid-notify-url"
        return None

    # ----- the API (POST) ----------------------------------------------------------------------------
    def api(self, params: dict[str, str], host: str) -> str:
        method = params.get("method", "")
        why = self._checked(params)
        if why is not None:
            self.refused.append(why)
            return self._respond(method or "error", self._fail("40002", why, SUB_MSG.get(why, "验签出错或参数无效")))
        biz = json.loads(params.get("biz_content") or "{}")
        with self._lock:
            self.calls.append(method)
            if method == "alipay.trade.query":
                return self._respond(method, self._query(biz))
            if method == "alipay.trade.close":
                return self._respond(method, self._close(biz))
            if method == "alipay.trade.refund":
                return self._respond(method, self._refund(biz))
            if method == "alipay.trade.fastpay.refund.query":
                return self._respond(method, self._refund_query(biz))
            if method == "alipay.data.dataservice.bill.downloadurl.query":
                return self._respond(method, self._bill_url(biz, host))
        return self._respond(method, self._fail("40002", "isv.invalid-method", "不存在的方法名"))

    def _trade(self, biz: dict[str, Any]) -> dict[str, Any] | None:
        return self.trades.get(str(biz.get("out_trade_no", "")))

    def _query(self, biz: dict[str, Any]) -> dict[str, Any]:
        trade = self._trade(biz)
        if trade is None:
            return self._fail("40004", "ACQ.TRADE_NOT_EXIST", "交易不存在")
        body = {"code": "10000", "msg": "Success", "out_trade_no": biz["out_trade_no"],
                "trade_status": trade["state"], "total_amount": yuan(trade["total"])}
        if trade["trade_no"]:
            body |= {"trade_no": trade["trade_no"], "buyer_logon_id": "159****5620", "send_pay_date": trade["paid_at"]}
        return body

    def _close(self, biz: dict[str, Any]) -> dict[str, Any]:
        trade = self._trade(biz)
        if trade is None:
            return self._fail("40004", "ACQ.TRADE_NOT_EXIST", "交易不存在")
        if trade["state"] != "WAIT_BUYER_PAY":
            return self._fail("40004", "ACQ.TRADE_STATUS_ERROR", "交易状态不合法")
        trade["state"] = "TRADE_CLOSED"
        return {"code": "10000", "msg": "Success", "out_trade_no": biz["out_trade_no"]}

    def _refund(self, biz: dict[str, Any]) -> dict[str, Any]:
        trade = self._trade(biz)
        if trade is None:
            return self._fail("40004", "ACQ.TRADE_NOT_EXIST", "交易不存在")
        if trade["state"] not in ("TRADE_SUCCESS",):
            return self._fail("40004", "ACQ.TRADE_STATUS_ERROR", "交易状态不合法")
        amount = str(biz.get("refund_amount", ""))
        if not AMOUNT.fullmatch(amount) or fen(amount) <= 0:
            return self._fail("40002", "isv.invalid-refund-amount", "退款金额无效")
        request_no = str(biz.get("out_request_no") or biz["out_trade_no"])
        key = (biz["out_trade_no"], request_no)
        body = {"code": "10000", "msg": "Success", "trade_no": trade["trade_no"], "out_trade_no": biz["out_trade_no"],
                "buyer_logon_id": "159****5620"}
        if key in self.refunds:  # the same request again: refunded once
            return body | {"fund_change": "N", "refund_fee": yuan(trade["refunded"])}
        if self.refuse_refunds is not None:
            return self._fail(*self.refuse_refunds)
        if fen(amount) > trade["total"] - trade["refunded"]:
            return self._fail("40004", "ACQ.REFUND_AMT_NOT_EQUAL_TOTAL", "退款金额超限")
        self.refunds[key] = fen(amount)
        trade["refunded"] += fen(amount)
        if self.refunds_pending:  # taken, the money not moved yet
            return body | {"fund_change": "N", "refund_fee": yuan(trade["refunded"])}
        self.refunds_paid.add(key)
        return body | {"fund_change": "Y", "refund_fee": yuan(trade["refunded"])}

    def _refund_query(self, biz: dict[str, Any]) -> dict[str, Any]:
        trade = self._trade(biz)
        if trade is None:
            return self._fail("40004", "ACQ.TRADE_NOT_EXIST", "交易不存在")
        request_no = str(biz.get("out_request_no") or "")
        if not request_no:
            return self._fail("40002", "isv.missing-out-request-no", "缺少退款请求号")
        key = (biz["out_trade_no"], request_no)
        body = {"code": "10000", "msg": "Success", "out_trade_no": biz["out_trade_no"], "out_request_no": request_no}
        if key not in self.refunds_paid:  # not received, or not paid out yet: no refund_status
            return body
        return body | {"trade_no": trade["trade_no"], "total_amount": yuan(trade["total"]),
                       "refund_amount": yuan(self.refunds[key]), "refund_status": "REFUND_SUCCESS"}

    def finish_refunds(self) -> None:
        """Alipay pays out the refunds it took while ``refunds_pending``."""
        with self._lock:
            self.refunds_paid |= set(self.refunds)

    def _bill_url(self, biz: dict[str, Any], host: str) -> dict[str, Any]:
        day = str(biz.get("bill_date", ""))
        if biz.get("bill_type") != "trade" or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", day):
            return self._fail("40004", "isp.bill_not_exist", "账单不存在")
        token = secrets.token_hex(8)
        self._bills[token] = self.bill_zip(day)
        return {"code": "10000", "msg": "Success", "bill_download_url": f"{host}/bill/{token}"}

    def bill_zip(self, day: str) -> bytes:
        """The day's trade bill as Alipay ships it: a zip of GBK CSV files, ``#`` comment lines."""
        out = io.StringIO()
        out.write(f"#支付宝业务明细查询\n#账号：[{SELLER_ID}0156]\n#起始日期：[{day} 00:00:00]\n")
        out.write("#-----------------------------------------业务明细列表----------------------------------------\n")
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["支付宝交易号", "商户订单号", "业务类型", "商品名称", "创建时间", "完成时间", "订单金额（元）",
                         "商家实收（元）", "服务费（元）", "备注"])
        for out_trade_no, t in self.trades.items():
            if t["trade_no"] and t["paid_at"].startswith(day):
                fee = (t["total"] * 6 + 500) // 1000  # 0.6%, rounded to the 分
                writer.writerow([t["trade_no"], out_trade_no, "交易", t["subject"], t["paid_at"], t["paid_at"],
                                 yuan(t["total"]), yuan(t["total"]), f"-{yuan(fee)}", ""])
                for (trade_no, request_no), amount in self.refunds.items():
                    if trade_no == out_trade_no and (trade_no, request_no) in self.refunds_paid:
                        writer.writerow([t["trade_no"], out_trade_no, "退款", t["subject"], t["paid_at"], t["paid_at"],
                                         f"-{yuan(amount)}", f"-{yuan(amount)}", "0.00", request_no])
        out.write("#-----------------------------------------业务明细列表结束------------------------------------\n")
        raw = io.BytesIO()
        with zipfile.ZipFile(raw, "w") as bundle:
            bundle.writestr(f"{SELLER_ID}0156_{day.replace('-', '')}_业务明细.csv", out.getvalue().encode("gbk"))
            bundle.writestr(f"{SELLER_ID}0156_{day.replace('-', '')}_业务明细(汇总).csv", "#汇总\n".encode("gbk"))
        return raw.getvalue()

    # ----- the payer pays; the notification --------------------------------------------------------
    def pay(self, out_trade_no: str, when: str = "2025-04-10 09:05:00") -> None:
        """The payer pays at the cashier (which must have been opened, and the trade still waiting)."""
        with self._lock:
            trade = self.trades[out_trade_no]
            assert trade["state"] == "WAIT_BUYER_PAY", trade["state"]
            trade |= {"state": "TRADE_SUCCESS", "trade_no": "2025041022001" + secrets.token_hex(8)[:15].upper(),
                      "paid_at": when}

    def notification(self, out_trade_no: str, signer: rsa.RSAPrivateKey | None = None,
                     override: dict[str, str] | None = None) -> dict[str, str]:
        """The ``trade_status_sync`` parameters of a paid trade, signed by Alipay's key (or
        ``signer``); ``override`` changes fields before signing (a wrong amount, another app)."""
        t = self.trades[out_trade_no]
        params = {"notify_time": t["paid_at"], "notify_type": "trade_status_sync",
                  "notify_id": "2025041000222" + secrets.token_hex(10), "charset": "utf-8", "version": "1.0",
                  "app_id": APP_ID, "seller_id": SELLER_ID, "auth_app_id": APP_ID, "trade_no": t["trade_no"],
                  "out_trade_no": out_trade_no, "buyer_open_id": "074a1CcTG1LelxKe4xQC0zgNdId0nxi95b5lsNpazWYoCo5",
                  "trade_status": t["state"], "total_amount": yuan(t["total"]), "receipt_amount": yuan(t["total"]),
                  "buyer_pay_amount": yuan(t["total"]), "invoice_amount": yuan(t["total"]), "point_amount": "0.00",
                  "subject": t["subject"], "gmt_create": t["paid_at"], "gmt_payment": t["paid_at"],
                  "fund_bill_list": json.dumps([{"amount": yuan(t["total"]), "fundChannel": "ALIPAYACCOUNT"}])}
        params |= override or {}
        params["sign"] = rsa2(signer or self.keys.alipay, sign_content(params))
        params["sign_type"] = "RSA2"
        return params

    def deliver(self, out_trade_no: str, params: dict[str, str]) -> tuple[int, str]:
        """POST the notification to the order's ``notify_url``, form-encoded, as Alipay does."""
        request = urllib.request.Request(self.trades[out_trade_no]["notify_url"],
                                         data=urlencode(params).encode("ascii"), method="POST",
                                         headers={"Content-Type": "application/x-www-form-urlencoded; charset=utf-8"})
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return answer.status, answer.read().decode("utf-8")
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode("utf-8")
