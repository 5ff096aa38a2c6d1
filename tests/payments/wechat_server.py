"""A protocol-faithful WeChat Pay API v3 server on 127.0.0.1, from the published API v3 documents
(签名生成 / 签名验证 / 回调通知 / Native下单 / H5下单 / JSAPI下单 / JSAPI调起支付 / 查询订单 / 关闭订单 /
申请退款 / 查询单笔退款 / 退款结果通知 / 申请交易账单), with the 公众号's web authorisation (网页授权, snsapi_base)
beside it.

What it checks, as the real API does:
* every request's ``Authorization: WECHATPAY2-SHA256-RSA2048 mchid=…,nonce_str=…,signature=…,
  timestamp=…,serial_no=…``: the merchant id, the API certificate's serial, the timestamp within
  5 minutes, and the RSA-SHA256 signature of ``METHOD\\nURL\\nTIMESTAMP\\nNONCE\\nBODY\\n`` with the
  merchant's public key (401 ``SIGN_ERROR`` otherwise);
* ``Wechatpay-Serial`` names the WeChat Pay public key the merchant verifies with (public-key
  mode), or, when sent at all, one of the platform certificates (platform-certificate mode);
* the order's fields: appid and mchid, out_trade_no 6–32 characters, notify_url, the amount in 分
  (a positive integer) and currency CNY; a refund's total equal to the order's and no more refunded
  than paid; a refund's ``out_refund_no`` (1–64 of ``0-9a-zA-Z_-|*@``) refunds once: the same
  request again answers the same refund as it is now ("同一退款单号多次请求只退一笔").

What a test can make of it: refunds answered ``PROCESSING`` (``refund_status``) and finished later
(``finish_refund``: SUCCESS, or ABNORMAL / CLOSED), refunds refused (``refuse_refunds``: e.g. 403
``NOT_ENOUGH``), a server that cannot be reached (``down``: the connection is dropped unanswered,
as a network failure), requests held until the test releases them (``hold`` on ``hold_paths``).

JSAPI: ``/v3/pay/transactions/jsapi`` needs ``payer.openid``, an openid of this appid (PARAM_ERROR
otherwise), and answers ``prepay_id``. The 公众号's ``/connect/oauth2/authorize`` (only inside
WeChat: another browser is told to open the link in WeChat, as WeChat does) redirects to the
``redirect_uri`` with a code and the state; ``/sns/oauth2/access_token`` gives the openid for a
known code once (40029 unknown, 40163 used, 40013 wrong appid, 40125 wrong secret, HTTP 200 as
WeChat answers). ``/test/jsapi/bridge`` (test only) stands in for the WeChat client's
``getBrandWCPayRequest``: it checks paySign (RSA-SHA256 over ``appId\\ntimeStamp\\nnonceStr\\n
package\\n``) with the merchant's public key, the prepay_id and that the payer is the one the order
was made for, marks the order paid and posts the signed notification.

What it sends, as the real API does: every answer signed with the platform key
(``Wechatpay-Timestamp``, ``-Nonce``, ``-Signature``, ``-Serial``, ``-Signature-Type``), and on
``pay()`` a notification whose resource is encrypted with AEAD_AES_256_GCM under the APIv3 key
(``notification``; a refund's: ``refund_notification``, event REFUND.SUCCESS / ABNORMAL / CLOSED).
A merchant in platform-certificate mode (``Keys(mode=CERTIFICATE)``) is answered by
``GET /v3/certificates`` (平台证书: each certificate AEAD_AES_256_GCM-encrypted under the APIv3 key,
associated data ``certificate``), and everything is signed with the newest platform certificate's
key under its serial; ``rotate()`` issues a new one, as WeChat Pay does before the old one expires.
All keys and certificates are generated when the server is made; none is ever written to the
repository.
"""

from __future__ import annotations

import base64
import json
import re
import secrets
import threading
import time
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import httpx
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from tests.payments.certs import Issued, issue

MCHID = "1900000109"
APPID = "wxd678efh567hg6787"
MERCHANT_SERIAL = "5157F09EFDC096DE15EBE81A47057A7232F1B8E1"
PUBLIC_KEY_ID = "PUB_KEY_ID_0119000001092025120600000000000001"
BEIJING = timezone(timedelta(hours=8))
PUBLIC_KEY, CERTIFICATE = "public_key", "certificate"  # how the merchant verifies WeChat Pay's signatures
TENPAY_CA = "C=CN,ST=Guangdong,L=Shenzhen,O=Tenpay.com,OU=Tenpay.com CA Center,CN=Tenpay.com Root CA"
PLATFORM = "C=CN,ST=Guangdong,L=Shenzhen,O=Tenpay.com,OU=Tenpay.com CA Center,CN=Tenpay.com sign"
MP_SECRET = "0f9e8d7c6b5a49382716a5b4c3d2e1f0"  # the 公众号's AppSecret (test only)
PAYER_OPENID = "oUpF8uMuAJO_M2pxb1Q9zNjWeS6o"  # the WeChat user who opens our pages inside WeChat
CODE_SECONDS = 300  # a web authorisation code lives 5 minutes and is used once
OUT_REFUND_NO = re.compile(r"[0-9A-Za-z_\-|*@]{1,64}")
REFUND_EVENTS = {"SUCCESS": ("REFUND.SUCCESS", "退款成功"), "ABNORMAL": ("REFUND.ABNORMAL", "退款异常"),
                 "CLOSED": ("REFUND.CLOSED", "退款关闭")}


def new_key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def pem_private(key: rsa.RSAPrivateKey) -> str:
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption()).decode()


def pem_public(key: rsa.RSAPrivateKey) -> str:
    return key.public_key().public_bytes(serialization.Encoding.PEM,
                                         serialization.PublicFormat.SubjectPublicKeyInfo).decode()


def sign(key: rsa.RSAPrivateKey, message: str) -> str:
    return base64.b64encode(key.sign(message.encode(), padding.PKCS1v15(), hashes.SHA256())).decode()


@dataclass
class Keys:
    """The merchant's key pair (its public half is what WeChat Pay holds from the API certificate),
    the platform's key pair (its public half is the 微信支付公钥 the merchant downloads) and the
    APIv3 key. Generated per test run."""

    merchant: rsa.RSAPrivateKey = field(default_factory=new_key)
    platform: rsa.RSAPrivateKey = field(default_factory=new_key)
    apiv3_key: str = field(default_factory=lambda: secrets.token_hex(16))  # 32 characters
    mode: str = PUBLIC_KEY
    ca: Issued | None = None  # CERTIFICATE mode: the CA that issues the platform certificates
    platform_certs: list[Issued] = field(default_factory=list)  # oldest first; the last one signs

    def __post_init__(self) -> None:
        if self.mode == CERTIFICATE and self.ca is None:
            self.ca = issue(TENPAY_CA, new_key(), ca=True)
            self.rotate()

    def rotate(self) -> Issued:
        """A new platform certificate (new key, new serial); the old ones stay listed."""
        assert self.ca is not None
        self.platform_certs.append(issue(PLATFORM, new_key(), self.ca, days=5 * 365))
        return self.platform_certs[-1]

    def signer(self) -> tuple[rsa.RSAPrivateKey, str]:
        """The key WeChat Pay signs with and the serial it names in ``Wechatpay-Serial``."""
        if self.mode == CERTIFICATE:
            newest = self.platform_certs[-1]
            assert isinstance(newest.key, rsa.RSAPrivateKey)
            return newest.key, serial_of(newest)
        return self.platform, PUBLIC_KEY_ID

    def environment(self, folder: Path, gateway: str, notify_url: str = "https://yisai.example/pay/wechat/notify",
                    merchant: rsa.RSAPrivateKey | None = None, jsapi: bool = False) -> dict[str, str]:
        """The settings docs/fees.md names, with the key files written to ``folder`` (tmp); ``jsapi``
        adds the 公众号's AppSecret and points WeChat's authorisation endpoints at ``gateway``."""
        extra = {"YISAI_WECHATPAY_MP_SECRET": MP_SECRET, "YISAI_WECHAT_OPEN_URL": gateway,
                 "YISAI_WECHAT_API_URL": gateway} if jsapi else {}
        (folder / "apiclient_key.pem").write_text(pem_private(merchant or self.merchant))
        (folder / "apiv3.key").write_text(self.apiv3_key)
        env = {"YISAI_WECHATPAY_MCHID": MCHID, "YISAI_WECHATPAY_APPID": APPID,
               "YISAI_WECHATPAY_CERT_SERIAL": MERCHANT_SERIAL,
               "YISAI_WECHATPAY_PRIVATE_KEY_FILE": str(folder / "apiclient_key.pem"),
               "YISAI_WECHATPAY_APIV3_KEY_FILE": str(folder / "apiv3.key"),
               "YISAI_WECHATPAY_NOTIFY_URL": notify_url, "YISAI_WECHATPAY_GATEWAY": gateway}
        if self.mode == CERTIFICATE:  # an empty directory: the certificates are downloaded into it
            (folder / "wechatpay_certs").mkdir(exist_ok=True)
            return env | {"YISAI_WECHATPAY_CERT_DIR": str(folder / "wechatpay_certs"), **extra}
        (folder / "pub_key.pem").write_text(pem_public(self.platform))
        return env | {"YISAI_WECHATPAY_PUBLIC_KEY_FILE": str(folder / "pub_key.pem"),
                      "YISAI_WECHATPAY_PUBLIC_KEY_ID": PUBLIC_KEY_ID, **extra}


def serial_of(platform: Issued) -> str:
    """A platform certificate's serial as WeChat Pay writes it: upper-case hexadecimal."""
    return format(platform.cert.serial_number, "X")


@dataclass(frozen=True)
class Raw:
    """An answer that is not the API's JSON: a redirect or a page."""

    status: int
    body: str = ""
    headers: dict[str, str] = field(default_factory=dict)


def _error(status: int, code: str, message: str) -> tuple[int, dict[str, Any]]:
    return status, {"code": code, "message": message}


class WeChatPayServer:
    """The server and its state: orders by out_trade_no, refunds, and every request it refused."""

    def __init__(self, keys: Keys) -> None:
        self.keys = keys
        self.orders: dict[str, dict[str, Any]] = {}
        self.refunds: dict[str, dict[str, Any]] = {}
        self.refused: list[str] = []
        self.requests: list[tuple[str, str]] = []
        self._lock = threading.Lock()
        self.hold: threading.Event | None = None  # set by a test: a request on hold_paths waits (a slow provider)
        self.hold_paths: tuple[str, ...] = ("/v3/pay/transactions/",)  # creating, querying, closing an order
        self.arrived = threading.Event()  # such a request has reached the server
        self.payer = PAYER_OPENID  # who is signed in to the WeChat client that opens our pages
        self.openids = {PAYER_OPENID}  # the users known under APPID (a 公众号's openids are its own)
        self.codes: dict[str, tuple[str, float, bool]] = {}  # web authorisation code → (openid, issued, used)
        self.oauth_domain = ""  # the 网页授权域名 (host[:port]); "" = any
        self.notify_to = ""  # where notifications really go (tests: the site's address), else notify_url
        self.exchanges: list[dict[str, str]] = []  # the access_token requests (what the client sent)
        self.delivered: list[int] = []  # the site's answers to the notifications the bridge sent
        self.refund_status = "SUCCESS"  # what a new refund is answered: SUCCESS, or PROCESSING (finished later)
        self.refuse_refunds: tuple[int, str, str] | None = None  # (HTTP status, code, message) for each new refund
        self.down = False  # every connection dropped unanswered: the provider cannot be reached
        self.dropped = 0  # requests dropped while down
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def _serve(self) -> None:
                if server.down:  # no answer at all: the client sees the connection closed
                    server.dropped += 1
                    self.close_connection = True
                    return
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length).decode() if length else ""
                status, answer = server.handle(self.command, self.path, dict(self.headers.items()), body)
                if isinstance(answer, Raw):
                    payload = answer.body.encode()
                    self.send_response(answer.status)
                    self.send_header("Content-Length", str(len(payload)))
                    for k, v in answer.headers.items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(payload)
                    return
                if isinstance(answer, bytes):
                    payload, ctype = answer, "application/octet-stream"
                    text = ""
                else:
                    text = json.dumps(answer, ensure_ascii=False) if answer is not None else ""
                    payload, ctype = text.encode(), "application/json; charset=utf-8"
                self.send_response(status)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(payload)))
                for k, v in server.signed_headers(text).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(payload)

            do_GET = do_POST = _serve

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.gateway = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> WeChatPayServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=10)

    # ----- the signatures ---------------------------------------------------------------------------
    def signed_headers(self, body: str) -> dict[str, str]:
        ts, nonce = str(int(time.time())), secrets.token_hex(16)
        key, serial = self.keys.signer()
        return {"Wechatpay-Timestamp": ts, "Wechatpay-Nonce": nonce,
                "Wechatpay-Signature": sign(key, f"{ts}\n{nonce}\n{body}\n"),
                "Wechatpay-Serial": serial, "Wechatpay-Signature-Type": "WECHATPAY2-SHA256-RSA2048"}

    def _authorised(self, method: str, path: str, headers: dict[str, str], body: str) -> str | None:
        """None when the request is the merchant's, else why not."""
        auth = next((v for k, v in headers.items() if k.lower() == "authorization"), "")
        scheme, _, params = auth.partition(" ")
        if scheme != "WECHATPAY2-SHA256-RSA2048":
            return "scheme"
        fields = {}
        for part in params.split(","):
            k, _, v = part.strip().partition("=")
            fields[k] = v.strip('"')
        if fields.get("mchid") != MCHID:
            return "mchid"
        if fields.get("serial_no") != MERCHANT_SERIAL:
            return "serial_no"
        ts = fields.get("timestamp", "")
        if not ts.isdigit() or abs(int(ts) - time.time()) > 300:
            return "timestamp"
        message = f"{method}\n{path}\n{ts}\n{fields.get('nonce_str', '')}\n{body}\n"
        try:
            self.keys.merchant.public_key().verify(base64.b64decode(fields.get("signature", "")), message.encode(),
                                                   padding.PKCS1v15(), hashes.SHA256())
        except (InvalidSignature, ValueError):
            return "signature"
        serial = next((v for k, v in headers.items() if k.lower() == "wechatpay-serial"), "")
        if self.keys.mode == CERTIFICATE:  # sent only with encrypted fields: then a platform certificate's
            if serial and serial not in {serial_of(c) for c in self.keys.platform_certs}:
                return "wechatpay-serial"
        elif serial != PUBLIC_KEY_ID:
            return "wechatpay-serial"
        return None

    # ----- the API ----------------------------------------------------------------------------------
    def handle(self, method: str, target: str, headers: dict[str, str], body: str) -> tuple[int, Any]:
        url = urlsplit(target)
        self.requests.append((method, url.path))
        if url.path == "/v3/billdownload/file":  # the bill's download: a token, no signature (skip_verify)
            return 200, self._bill_file(parse_qs(url.query).get("token", [""])[0])
        query = {k: v[0] for k, v in parse_qs(url.query, keep_blank_values=True).items()}
        if method == "GET" and url.path == "/connect/oauth2/authorize":  # 公众号网页授权: no API signature
            return 200, self._authorize(query, headers)
        if method == "GET" and url.path == "/sns/oauth2/access_token":
            return 200, self._access_token(query)
        if method == "POST" and url.path == "/test/jsapi/bridge":  # the WeChat client's part (test only)
            return 200, self.bridge_and_notify(json.loads(body or "{}"))
        why = self._authorised(method, target, headers, body)
        if why is not None:
            self.refused.append(why)
            return _error(401, "SIGN_ERROR", f"签名错误 ({why})")
        data = json.loads(body) if body else {}
        if self.hold is not None and url.path.startswith(self.hold_paths):
            self.arrived.set()
            self.hold.wait(300)  # released by the test; the bound only ends a hang
        with self._lock:
            if method == "GET" and url.path == "/v3/certificates":
                return self._certificates()
            if method == "POST" and url.path in ("/v3/pay/transactions/native", "/v3/pay/transactions/h5",
                                                 "/v3/pay/transactions/jsapi"):
                return self._create(url.path.rsplit("/", 1)[1], data)
            if url.path.startswith("/v3/pay/transactions/out-trade-no/"):
                rest = url.path.removeprefix("/v3/pay/transactions/out-trade-no/")
                if method == "POST" and rest.endswith("/close"):
                    return self._close(rest.removesuffix("/close"), data)
                if method == "GET":
                    if parse_qs(url.query).get("mchid") != [MCHID]:
                        return _error(400, "PARAM_ERROR", "mchid")
                    return self._query(rest)
            if method == "POST" and url.path == "/v3/refund/domestic/refunds":
                return self._refund(data)
            if method == "GET" and url.path.startswith("/v3/refund/domestic/refunds/"):
                return self._refund_query(url.path.removeprefix("/v3/refund/domestic/refunds/"))
            if method == "GET" and url.path == "/v3/bill/tradebill":
                day = parse_qs(url.query).get("bill_date", [""])[0]
                token = base64.urlsafe_b64encode(day.encode()).decode()
                return 200, {"hash_type": "SHA1", "hash_value": "", "download_url":
                             f"{self.gateway}/v3/billdownload/file?token={token}"}
        return _error(404, "NOT_FOUND", "no such API")

    def _certificates(self) -> tuple[int, Any]:
        """下载平台证书: every platform certificate, its PEM encrypted under the APIv3 key."""
        if self.keys.mode != CERTIFICATE:  # a merchant opened in public-key mode has none
            return _error(404, "RESOURCE_NOT_EXISTS", "商户未使用平台证书")
        data = []
        for platform in self.keys.platform_certs:
            nonce = secrets.token_hex(6)
            cipher = AESGCM(self.keys.apiv3_key.encode()).encrypt(nonce.encode(), platform.pem.encode(),
                                                                   b"certificate")
            data.append({"serial_no": serial_of(platform),
                         "effective_time": platform.cert.not_valid_before_utc.astimezone(BEIJING).isoformat(),
                         "expire_time": platform.cert.not_valid_after_utc.astimezone(BEIJING).isoformat(),
                         "encrypt_certificate": {"algorithm": "AEAD_AES_256_GCM", "nonce": nonce,
                                                 "associated_data": "certificate",
                                                 "ciphertext": base64.b64encode(cipher).decode()}})
        return 200, {"data": data}

    def _create(self, kind: str, d: dict[str, Any]) -> tuple[int, Any]:
        amount = d.get("amount") or {}
        total = amount.get("total")
        no = d.get("out_trade_no", "")
        if d.get("appid") != APPID or d.get("mchid") != MCHID:
            return _error(400, "PARAM_ERROR", "appid/mchid")
        if not (isinstance(no, str) and 6 <= len(no) <= 32 and no.isascii()):
            return _error(400, "PARAM_ERROR", "out_trade_no")
        if not isinstance(total, int) or isinstance(total, bool) or total <= 0 or amount.get("currency", "CNY") != "CNY":
            return _error(400, "PARAM_ERROR", "amount")
        if not d.get("notify_url", "").startswith("https://") or not d.get("description"):
            return _error(400, "PARAM_ERROR", "notify_url/description")
        if kind == "h5" and not ((d.get("scene_info") or {}).get("payer_client_ip")
                                 and (d.get("scene_info") or {}).get("h5_info", {}).get("type")):
            return _error(400, "PARAM_ERROR", "scene_info")
        openid = (d.get("payer") or {}).get("openid") if kind == "jsapi" else None
        if kind == "jsapi" and not openid:
            return _error(400, "PARAM_ERROR", "缺少参数 payer.openid")
        if kind == "jsapi" and openid not in self.openids:
            return _error(400, "PARAM_ERROR", "appid和openid不匹配")
        if no in self.orders:
            return _error(400, "ORDER_NO_REPEAT", "商户订单号重复")
        prepay = "wx" + secrets.token_hex(14)
        self.orders[no] = {"kind": kind, "total": total, "notify_url": d["notify_url"], "state": "NOTPAY",
                           "transaction_id": "", "refunded": 0, "description": d["description"],
                           "time_expire": d.get("time_expire", ""), "prepay_id": prepay, "openid": openid}
        if kind == "jsapi":
            return 200, {"prepay_id": prepay}
        if kind == "native":
            return 200, {"code_url": f"weixin://wxpay/bizpayurl?pr={prepay[:10]}"}
        return 200, {"h5_url": f"https://wx.tenpay.com/cgi-bin/mmpayweb-bin/checkmweb?prepay_id={prepay}"}

    def _resource(self, no: str, *, total: int | None = None, mchid: str = MCHID) -> dict[str, Any]:
        o = self.orders[no]
        out: dict[str, Any] = {"appid": APPID, "mchid": mchid, "out_trade_no": no, "trade_type": o["kind"].upper(),
                               "trade_state": o["state"], "trade_state_desc": o["state"],
                               "amount": {"total": o["total"] if total is None else total,
                                          "payer_total": o["total"] if total is None else total,
                                          "currency": "CNY", "payer_currency": "CNY"}}
        if o["transaction_id"]:
            out |= {"transaction_id": o["transaction_id"], "success_time": o["success_time"],
                    "payer": {"openid": o.get("openid") or PAYER_OPENID}, "bank_type": "OTHERS"}
        return out

    def _query(self, no: str) -> tuple[int, Any]:
        if no not in self.orders:
            return _error(404, "ORDER_NOT_EXIST", "订单不存在")
        return 200, self._resource(no)

    def _close(self, no: str, d: dict[str, Any]) -> tuple[int, Any]:
        if d.get("mchid") != MCHID:
            return _error(400, "PARAM_ERROR", "mchid")
        if no not in self.orders:
            return _error(404, "ORDER_NOT_EXIST", "订单不存在")
        if self.orders[no]["state"] == "SUCCESS":
            return _error(400, "ORDER_PAID", "订单已支付")
        self.orders[no]["state"] = "CLOSED"
        return 204, None

    def _refund(self, d: dict[str, Any]) -> tuple[int, Any]:
        no, amount, out_refund_no = d.get("out_trade_no", ""), d.get("amount") or {}, d.get("out_refund_no", "")
        if not isinstance(out_refund_no, str) or not OUT_REFUND_NO.fullmatch(out_refund_no):
            return _error(400, "PARAM_ERROR", "out_refund_no")
        if "notify_url" in d and not str(d["notify_url"]).startswith("https://"):
            return _error(400, "PARAM_ERROR", "notify_url")
        if len(str(d.get("reason") or "")) > 80:
            return _error(400, "PARAM_ERROR", "reason")
        if no not in self.orders:
            return _error(404, "RESOURCE_NOT_EXISTS", "订单不存在")
        o = self.orders[no]
        refund, total = amount.get("refund"), amount.get("total")
        known = self.refunds.get(out_refund_no)
        if known is not None:  # the same out_refund_no again: refunded once, answered as it is now
            if known["out_trade_no"] != no or known["refund"] != refund:
                return _error(400, "INVALID_REQUEST", "退款单号已存在, 请求参数与原退款不一致")
            known["requests"] += 1
            return 200, self._refund_view(out_refund_no)
        if self.refuse_refunds is not None:
            return _error(*self.refuse_refunds)
        if o["state"] not in ("SUCCESS", "REFUND"):
            return _error(400, "INVALID_REQUEST", "订单未支付")
        if total != o["total"] or amount.get("currency") != "CNY":
            return _error(400, "PARAM_ERROR", "amount.total")
        if not isinstance(refund, int) or refund <= 0 or o["refunded"] + refund > o["total"]:
            return _error(400, "NOT_ENOUGH", "退款金额超过可退金额")
        o["refunded"] += refund
        o["state"] = "REFUND"
        now = datetime.now().strftime("%Y-%m-%dT%H:%M:%S+08:00")
        self.refunds[out_refund_no] = {"out_trade_no": no, "refund": refund, "reason": d.get("reason", ""),
                                       "refund_id": "50" + secrets.token_hex(14), "status": self.refund_status,
                                       "create_time": now, "success_time": now if self.refund_status == "SUCCESS" else "",
                                       "requests": 1}
        return 200, self._refund_view(out_refund_no)

    def _refund_view(self, out_refund_no: str, *, refund: int | None = None, mchid: str | None = None) -> dict[str, Any]:
        """A refund as 申请退款 and 查询单笔退款 answer it (with ``mchid``: as its notification's resource)."""
        r = self.refunds[out_refund_no]
        o = self.orders[r["out_trade_no"]]
        amount = r["refund"] if refund is None else refund
        out: dict[str, Any] = {"refund_id": r["refund_id"], "out_refund_no": out_refund_no,
                               "transaction_id": o["transaction_id"], "out_trade_no": r["out_trade_no"],
                               "user_received_account": "支付用户零钱"}
        if mchid is None:
            out |= {"channel": "ORIGINAL", "create_time": r["create_time"], "status": r["status"],
                    "funds_account": "AVAILABLE",
                    "amount": {"total": o["total"], "refund": amount, "payer_total": o["total"], "payer_refund": amount,
                               "settlement_refund": amount, "settlement_total": o["total"], "discount_refund": 0,
                               "currency": "CNY"}}
        else:
            out |= {"mchid": mchid, "refund_status": r["status"],
                    "amount": {"total": o["total"], "refund": amount, "payer_total": o["total"], "payer_refund": amount}}
        if r["success_time"]:
            out["success_time"] = r["success_time"]
        return out

    def _refund_query(self, out_refund_no: str) -> tuple[int, Any]:
        if out_refund_no not in self.refunds:
            return _error(404, "RESOURCE_NOT_EXISTS", "退款单不存在")
        return 200, self._refund_view(out_refund_no)

    def finish_refund(self, out_refund_no: str, status: str = "SUCCESS") -> None:
        """WeChat Pay finishes a PROCESSING refund: SUCCESS (the money is back with the payer),
        ABNORMAL (the payer's card could not take it) or CLOSED (closed: what it held may be
        refunded again)."""
        with self._lock:
            r = self.refunds[out_refund_no]
            assert r["status"] == "PROCESSING", r["status"]
            r["status"] = status
            if status == "SUCCESS":
                r["success_time"] = datetime.now().strftime("%Y-%m-%dT%H:%M:%S+08:00")
            if status == "CLOSED":
                self.orders[r["out_trade_no"]]["refunded"] -= r["refund"]

    def _bill_file(self, token: str) -> bytes:
        head = ("交易时间,公众账号ID,商户号,特约商户号,设备号,微信订单号,商户订单号,用户标识,交易类型,交易状态,付款银行,"
                "货币种类,应结订单金额,代金券金额,微信退款单号,商户退款单号,退款金额,充值券退款金额,退款类型,退款状态,商品名称,"
                "商户数据包,手续费,费率,订单金额,申请退款金额,费率备注")
        rows = [head]
        for no, o in self.orders.items():
            if o["transaction_id"]:
                yuan = f"{o['total'] // 100}.{o['total'] % 100:02d}"
                cells = [o["success_time"], APPID, MCHID, "0", "", o["transaction_id"], no, "openid", o["kind"].upper(),
                         "SUCCESS", "OTHERS", "CNY", yuan, "0.00", "0", "0", "0.00", "0.00", "", "", o["description"],
                         "", "0.00", "0.60%", yuan, "0.00", ""]
                rows.append(",".join("`" + c for c in cells))
        return ("\n".join(rows) + "\n").encode("utf-8")

    # ----- the 公众号's web authorisation (snsapi_base) ---------------------------------------------------
    def _authorize(self, q: dict[str, str], headers: dict[str, str]) -> Raw:
        ua = next((v for k, v in headers.items() if k.lower() == "user-agent"), "")
        if "micromessenger" not in ua.lower():  # WeChat's page outside WeChat
            return Raw(200, "<p>请在微信客户端打开链接</p>", {"Content-Type": "text/html; charset=utf-8"})
        redirect = q.get("redirect_uri", "")
        if q.get("appid") != APPID or q.get("response_type") != "code" or q.get("scope") not in ("snsapi_base",
                                                                                                "snsapi_userinfo"):
            return Raw(200, "<p>参数错误</p>", {"Content-Type": "text/html; charset=utf-8"})
        if not redirect or (self.oauth_domain and urlsplit(redirect).netloc != self.oauth_domain):
            return Raw(200, "<p>redirect_uri域名与后台配置不一致, 错误码10003</p>",
                       {"Content-Type": "text/html; charset=utf-8"})
        code = secrets.token_hex(16)
        with self._lock:
            self.codes[code] = (self.payer, time.time(), False)
        sep = "&" if "?" in redirect else "?"
        return Raw(302, "", {"Location": redirect + sep + urlencode({"code": code, "state": q.get("state", "")})})

    def _access_token(self, q: dict[str, str]) -> Raw:
        self.exchanges.append(dict(q))
        answer: dict[str, Any]
        if q.get("appid") != APPID:
            answer = {"errcode": 40013, "errmsg": "invalid appid"}
        elif q.get("secret") != MP_SECRET:
            answer = {"errcode": 40125, "errmsg": "invalid appsecret"}
        elif q.get("grant_type") != "authorization_code":
            answer = {"errcode": 40002, "errmsg": "invalid grant_type"}
        else:
            with self._lock:
                found = self.codes.get(q.get("code", ""))
                if found is None or time.time() - found[1] > CODE_SECONDS:
                    answer = {"errcode": 40029, "errmsg": "invalid code"}
                elif found[2]:
                    answer = {"errcode": 40163, "errmsg": "code been used"}
                else:
                    self.codes[q["code"]] = (found[0], found[1], True)
                    answer = {"access_token": secrets.token_hex(32), "expires_in": 7200,
                              "refresh_token": secrets.token_hex(32), "openid": found[0], "scope": "snsapi_base",
                              "is_snapshotuser": 0}
        return Raw(200, json.dumps(answer), {"Content-Type": "application/json; encoding=utf-8"})

    # ----- the WeChat client's getBrandWCPayRequest (test only) ---------------------------------------
    def bridge(self, params: dict[str, Any]) -> tuple[str, str]:
        """What the WeChat client does with the page's parameters: ("get_brand_wcpay_request:ok",
        out_trade_no) once the order is paid, else (":fail", why)."""
        fields = ("appId", "timeStamp", "nonceStr", "package", "signType", "paySign")
        if not all(isinstance(params.get(k), str) and params.get(k) for k in fields):
            return "get_brand_wcpay_request:fail", "missing parameter"
        if params["appId"] != APPID or params["signType"] != "RSA":
            return "get_brand_wcpay_request:fail", "appId/signType"
        if not params["timeStamp"].isdigit() or len(params["nonceStr"]) > 32:
            return "get_brand_wcpay_request:fail", "timeStamp/nonceStr"
        message = "\n".join(params[k] for k in ("appId", "timeStamp", "nonceStr", "package")) + "\n"
        try:
            self.keys.merchant.public_key().verify(base64.b64decode(params["paySign"]), message.encode(),
                                                   padding.PKCS1v15(), hashes.SHA256())
        except (InvalidSignature, ValueError):
            return "get_brand_wcpay_request:fail", "支付验证签名失败"
        prepay = params["package"].removeprefix("prepay_id=")
        with self._lock:
            no = next((n for n, o in self.orders.items() if o.get("prepay_id") == prepay and o["kind"] == "jsapi"), None)
            if no is None or not params["package"].startswith("prepay_id="):
                return "get_brand_wcpay_request:fail", "prepay_id"
            if self.orders[no]["openid"] != self.payer:
                return "get_brand_wcpay_request:fail", "当前用户与下单用户不一致"
            if self.orders[no]["state"] != "NOTPAY":
                return "get_brand_wcpay_request:fail", self.orders[no]["state"]
        self.pay(no)
        return "get_brand_wcpay_request:ok", no

    def bridge_and_notify(self, params: dict[str, Any]) -> Raw:
        """The bridge, then WeChat Pay's signed notification to the site (``notify_to`` or the
        order's notify_url); answers the bridge's ``err_msg`` as the page's callback gets it."""
        said, no = self.bridge(params)
        if said.endswith(":ok"):
            headers, body = self.notification(no)
            target = self.notify_to or self.orders[no]["notify_url"]
            self.delivered.append(httpx.post(target, content=body, headers=headers, timeout=30).status_code)
        return Raw(200, json.dumps({"err_msg": said}), {"Content-Type": "application/json"})

    # ----- the payer and the callbacks ---------------------------------------------------------------
    def pay(self, no: str) -> None:
        """The payer scans (or opens the H5 page) and pays."""
        with self._lock:
            o = self.orders[no]
            assert o["state"] == "NOTPAY", o["state"]
            o["state"] = "SUCCESS"
            o["transaction_id"] = "4200" + secrets.token_hex(12)
            o["success_time"] = datetime.now().strftime("%Y-%m-%dT%H:%M:%S+08:00")

    def notification(self, no: str, *, total: int | None = None, mchid: str = MCHID,
                     notify_id: str | None = None, signer: rsa.RSAPrivateKey | None = None,
                     serial: str | None = None) -> tuple[dict[str, str], bytes]:
        """The callback WeChat Pay posts to the order's notify_url: (headers, body). ``total`` /
        ``mchid`` / ``signer`` / ``serial`` make the forged or wrong ones the tests need."""
        return self._notify(self._resource(no, total=total, mchid=mchid), "transaction", "TRANSACTION.SUCCESS",
                            "支付成功", notify_id, signer, serial)

    def refund_notification(self, out_refund_no: str, *, refund: int | None = None, mchid: str = MCHID,
                            notify_id: str | None = None) -> tuple[dict[str, str], bytes]:
        """退款结果通知, posted to the refund's notify_url once the refund is final: event
        REFUND.SUCCESS / REFUND.ABNORMAL / REFUND.CLOSED, resource ``original_type`` refund,
        encrypted like a payment's. ``refund`` / ``mchid`` make a wrong one."""
        status = self.refunds[out_refund_no]["status"]
        event, summary = REFUND_EVENTS[status]
        return self._notify(self._refund_view(out_refund_no, refund=refund, mchid=mchid), "refund", event, summary,
                            notify_id, None, None)

    def _notify(self, resource: dict[str, Any], kind: str, event: str, summary: str, notify_id: str | None,
                signer: rsa.RSAPrivateKey | None, serial: str | None) -> tuple[dict[str, str], bytes]:
        plain = json.dumps(resource, ensure_ascii=False)
        nonce, aad = secrets.token_hex(6), kind
        cipher = AESGCM(self.keys.apiv3_key.encode()).encrypt(nonce.encode(), plain.encode(), aad.encode())
        body = json.dumps({
            "id": notify_id or str(uuid.uuid4()), "create_time": datetime.now().strftime("%Y-%m-%dT%H:%M:%S+08:00"),
            "resource_type": "encrypt-resource", "event_type": event, "summary": summary,
            "resource": {"original_type": kind, "algorithm": "AEAD_AES_256_GCM",
                         "ciphertext": base64.b64encode(cipher).decode(), "associated_data": aad, "nonce": nonce},
        }, ensure_ascii=False)
        headers = self.signed_headers(body)
        if signer is not None:
            ts, n = headers["Wechatpay-Timestamp"], headers["Wechatpay-Nonce"]
            headers["Wechatpay-Signature"] = sign(signer, f"{ts}\n{n}\n{body}\n")
        if serial is not None:
            headers["Wechatpay-Serial"] = serial
        headers["Content-Type"] = "application/json"
        return headers, body.encode()
