"""A protocol-faithful WeChat Pay API v3 server on 127.0.0.1, from the published API v3 documents
(签名生成 / 签名验证 / 回调通知 / Native下单 / H5下单 / 查询订单 / 关闭订单 / 申请退款 / 申请交易账单).

What it checks, as the real API does:
* every request's ``Authorization: WECHATPAY2-SHA256-RSA2048 mchid=…,nonce_str=…,signature=…,
  timestamp=…,serial_no=…``: the merchant id, the API certificate's serial, the timestamp within
  5 minutes, and the RSA-SHA256 signature of ``METHOD\\nURL\\nTIMESTAMP\\nNONCE\\nBODY\\n`` with the
  merchant's public key (401 ``SIGN_ERROR`` otherwise);
* ``Wechatpay-Serial`` names the WeChat Pay public key the merchant verifies with (public-key
  mode), or, when sent at all, one of the platform certificates (platform-certificate mode);
* the order's fields: appid and mchid, out_trade_no 6–32 characters, notify_url, the amount in 分
  (a positive integer) and currency CNY; a refund's total equal to the order's and no more refunded
  than paid.

What it sends, as the real API does: every answer signed with the platform key
(``Wechatpay-Timestamp``, ``-Nonce``, ``-Signature``, ``-Serial``, ``-Signature-Type``), and on
``pay()`` a notification whose resource is encrypted with AEAD_AES_256_GCM under the APIv3 key.
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
import secrets
import threading
import time
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

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
                    merchant: rsa.RSAPrivateKey | None = None) -> dict[str, str]:
        """The settings docs/fees.md names, with the key files written to ``folder`` (tmp)."""
        (folder / "apiclient_key.pem").write_text(pem_private(merchant or self.merchant))
        (folder / "apiv3.key").write_text(self.apiv3_key)
        env = {"YISAI_WECHATPAY_MCHID": MCHID, "YISAI_WECHATPAY_APPID": APPID,
               "YISAI_WECHATPAY_CERT_SERIAL": MERCHANT_SERIAL,
               "YISAI_WECHATPAY_PRIVATE_KEY_FILE": str(folder / "apiclient_key.pem"),
               "YISAI_WECHATPAY_APIV3_KEY_FILE": str(folder / "apiv3.key"),
               "YISAI_WECHATPAY_NOTIFY_URL": notify_url, "YISAI_WECHATPAY_GATEWAY": gateway}
        if self.mode == CERTIFICATE:  # an empty directory: the certificates are downloaded into it
            (folder / "wechatpay_certs").mkdir(exist_ok=True)
            return env | {"YISAI_WECHATPAY_CERT_DIR": str(folder / "wechatpay_certs")}
        (folder / "pub_key.pem").write_text(pem_public(self.platform))
        return env | {"YISAI_WECHATPAY_PUBLIC_KEY_FILE": str(folder / "pub_key.pem"),
                      "YISAI_WECHATPAY_PUBLIC_KEY_ID": PUBLIC_KEY_ID}


def serial_of(platform: Issued) -> str:
    """A platform certificate's serial as WeChat Pay writes it: upper-case hexadecimal."""
    return format(platform.cert.serial_number, "X")


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
        self.hold: threading.Event | None = None  # set by a test: creating, querying, closing an order waits (a slow provider)
        self.arrived = threading.Event()  # such a request has reached the server
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def _serve(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length).decode() if length else ""
                status, answer = server.handle(self.command, self.path, dict(self.headers.items()), body)
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
        why = self._authorised(method, target, headers, body)
        if why is not None:
            self.refused.append(why)
            return _error(401, "SIGN_ERROR", f"签名错误 ({why})")
        data = json.loads(body) if body else {}
        if self.hold is not None and url.path.startswith("/v3/pay/transactions/"):  # create, query, close
            self.arrived.set()
            self.hold.wait(300)  # released by the test; the bound only ends a hang
        with self._lock:
            if method == "GET" and url.path == "/v3/certificates":
                return self._certificates()
            if method == "POST" and url.path in ("/v3/pay/transactions/native", "/v3/pay/transactions/h5"):
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
        if no in self.orders:
            return _error(400, "ORDER_NO_REPEAT", "商户订单号重复")
        prepay = "wx" + secrets.token_hex(14)
        self.orders[no] = {"kind": kind, "total": total, "notify_url": d["notify_url"], "state": "NOTPAY",
                           "transaction_id": "", "refunded": 0, "description": d["description"],
                           "time_expire": d.get("time_expire", "")}
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
                    "payer": {"openid": "oUpF8uMuAJO_M2pxb1Q9zNjWeS6o"}, "bank_type": "OTHERS"}
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
        no, amount = d.get("out_trade_no", ""), d.get("amount") or {}
        if no not in self.orders:
            return _error(404, "RESOURCE_NOT_EXISTS", "订单不存在")
        o = self.orders[no]
        refund, total = amount.get("refund"), amount.get("total")
        if o["state"] not in ("SUCCESS", "REFUND"):
            return _error(400, "INVALID_REQUEST", "订单未支付")
        if total != o["total"] or amount.get("currency") != "CNY":
            return _error(400, "PARAM_ERROR", "amount.total")
        if not isinstance(refund, int) or refund <= 0 or o["refunded"] + refund > o["total"]:
            return _error(400, "NOT_ENOUGH", "退款金额超过可退金额")
        if d.get("out_refund_no") in self.refunds:
            return _error(400, "INVALID_REQUEST", "退款单号重复")
        o["refunded"] += refund
        o["state"] = "REFUND"
        refund_id = "50" + secrets.token_hex(14)
        self.refunds[d["out_refund_no"]] = {"out_trade_no": no, "refund": refund, "reason": d.get("reason", "")}
        return 200, {"refund_id": refund_id, "out_refund_no": d["out_refund_no"], "transaction_id": o["transaction_id"],
                     "out_trade_no": no, "channel": "ORIGINAL", "status": "SUCCESS",
                     "amount": {"total": o["total"], "refund": refund, "payer_total": o["total"],
                                "payer_refund": refund, "currency": "CNY"}}

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
        plain = json.dumps(self._resource(no, total=total, mchid=mchid), ensure_ascii=False)
        nonce, aad = secrets.token_hex(6), "transaction"
        cipher = AESGCM(self.keys.apiv3_key.encode()).encrypt(nonce.encode(), plain.encode(), aad.encode())
        body = json.dumps({
            "id": notify_id or str(uuid.uuid4()), "create_time": datetime.now().strftime("%Y-%m-%dT%H:%M:%S+08:00"),
            "resource_type": "encrypt-resource", "event_type": "TRANSACTION.SUCCESS", "summary": "支付成功",
            "resource": {"original_type": "transaction", "algorithm": "AEAD_AES_256_GCM",
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
