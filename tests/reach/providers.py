"""Local stand-ins for the SMS providers' HTTP APIs, written from their published documentation
(not from the SDKs): they check what the real API checks and answer with the documented bodies.

* Tencent Cloud API 3.0 (sms.tencentcloudapi.com, SendSms 2021-01-11): the TC3-HMAC-SHA256
  signature — CanonicalRequest = method, URI, query, canonical headers (the SignedHeaders, lower
  case, trimmed), SignedHeaders, hex SHA-256 of the payload; StringToSign = algorithm, timestamp,
  credential scope (date/service/tc3_request), hex SHA-256 of the canonical request; the key is
  derived HMAC-SHA256("TC3"+SecretKey, date) → service → "tc3_request". Errors come with HTTP 200
  as ``{"Response": {"Error": {"Code", "Message"}, "RequestId"}}``; per-number results in
  ``SendStatusSet``.
* Alibaba Cloud RPC (dysmsapi.aliyuncs.com, SendSms 2017-05-25): signature version 1.0,
  HMAC-SHA1 with key ``AccessKeySecret + "&"`` over ``METHOD&%2F&percentEncode(canonicalised
  query)``, parameters sorted by name, RFC 3986 percent-encoding; refusals with HTTP 4xx and
  ``{"RequestId", "HostId", "Code", "Message"}``; business results with HTTP 200 and ``Code``.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, quote, urlsplit


@dataclass
class Provider:
    """What a local provider accepts and what it received (each accepted message)."""

    secret_id: str
    secret_key: str
    sign_name: str
    templates: set[str]
    app_id: str = ""
    accepted: list[dict[str, Any]] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # error codes answered
    fail_next: list[str] = field(default_factory=list)  # business error codes to answer next
    port: int = 0

    @property
    def endpoint(self) -> str:
        return f"127.0.0.1:{self.port}"


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _hmac256(key: bytes, msg: str) -> bytes:
    return hmac.new(key, msg.encode(), hashlib.sha256).digest()


def tc3_signature(secret_key: str, method: str, uri: str, query: str, headers: dict[str, str],
                  signed: list[str], body: bytes, timestamp: int, service: str) -> str:  # fmt: skip
    canonical_headers = "".join(f"{h}:{headers[h].strip()}\n" for h in signed)
    canonical = "\n".join([method, uri, query, canonical_headers, ";".join(signed), _sha256(body)])
    date = datetime.fromtimestamp(timestamp, UTC).strftime("%Y-%m-%d")
    scope = f"{date}/{service}/tc3_request"
    to_sign = "\n".join(["TC3-HMAC-SHA256", str(timestamp), scope, _sha256(canonical.encode())])
    key = _hmac256(_hmac256(_hmac256(("TC3" + secret_key).encode(), date), service), "tc3_request")
    return hmac.new(key, to_sign.encode(), hashlib.sha256).hexdigest()


class _Tencent(BaseHTTPRequestHandler):
    provider: Provider

    def log_message(self, *args: object) -> None:
        return

    def _answer(self, response: dict[str, Any]) -> None:
        body = json.dumps({"Response": {**response, "RequestId": str(uuid.uuid4())}}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _error(self, code: str, message: str) -> None:
        self.provider.refused.append(code)
        self._answer({"Error": {"Code": code, "Message": message}})

    def do_POST(self) -> None:
        p = self.provider
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        headers = {k.lower(): v for k, v in self.headers.items()}
        auth = headers.get("authorization", "")
        algorithm, _, rest = auth.partition(" ")
        parts = dict(item.strip().split("=", 1) for item in rest.split(",") if "=" in item)
        if algorithm != "TC3-HMAC-SHA256" or not {"Credential", "SignedHeaders", "Signature"} <= set(parts):
            return self._error("AuthFailure.InvalidAuthorization", "Authorization header is invalid.")
        secret_id, date, service, terminal = [*parts["Credential"].split("/"), "", "", "", ""][:4]
        if secret_id != p.secret_id:
            return self._error("AuthFailure.SecretIdNotFound", "The SecretId is not found, please ensure that your "
                               "SecretId is correct.")
        timestamp = int(headers.get("x-tc-timestamp", "0") or 0)
        if abs(time.time() - timestamp) > 300:
            return self._error("AuthFailure.SignatureExpire", "Signature expired. Timestamp and server time "
                               "cannot differ by more than 5 minutes.")
        signed = parts["SignedHeaders"].split(";")
        if "host" not in signed or "content-type" not in signed or any(h not in headers for h in signed):
            return self._error("AuthFailure.InvalidAuthorization", "SignedHeaders must include host and "
                               "content-type.")
        url = urlsplit(self.path)
        expected = tc3_signature(p.secret_key, "POST", url.path or "/", url.query, headers, signed, body,
                                 timestamp, service)  # fmt: skip
        day = datetime.fromtimestamp(timestamp, UTC).strftime("%Y-%m-%d")
        if terminal != "tc3_request" or date != day or not hmac.compare_digest(expected, parts["Signature"]):
            return self._error("AuthFailure.SignatureFailure", "The provided credentials could not be validated. "
                               "Please check your signature is correct.")
        if headers.get("x-tc-action") != "SendSms" or headers.get("x-tc-version") != "2021-01-11":
            return self._error("InvalidAction", "The action or version is not supported.")
        req = json.loads(body)
        if req.get("SmsSdkAppId") != p.app_id:
            return self._error("UnauthorizedOperation.SmsSdkAppIdVerifyFail", "SmsSdkAppId verify fail.")
        statuses = []
        for number in req.get("PhoneNumberSet", []):
            code, message = "Ok", "send success"
            if p.fail_next:
                code, message = p.fail_next.pop(0), "refused as asked by the test"
            elif req.get("SignName") != p.sign_name:
                code, message = "FailedOperation.SignatureIncorrectOrUnapproved", "signature format error"
            elif req.get("TemplateId") not in p.templates:
                code, message = "FailedOperation.TemplateIncorrectOrUnapproved", "template is not approved"
            if code == "Ok":
                p.accepted.append({**req, "PhoneNumber": number})
            else:
                p.refused.append(code)
            statuses.append({"SerialNo": f"2028:{uuid.uuid4().int % 10**18}", "PhoneNumber": number,
                             "Fee": 1 if code == "Ok" else 0, "SessionContext": req.get("SessionContext", ""),
                             "Code": code, "Message": message, "IsoCode": "CN"})  # fmt: skip
        return self._answer({"SendStatusSet": statuses})


def percent(text: str) -> str:
    """RFC 3986 percent-encoding as Alibaba Cloud's signature documentation specifies it."""
    return quote(text, safe="~")


def rpc_signature(secret: str, method: str, params: dict[str, str]) -> str:
    canonical = "&".join(f"{percent(k)}={percent(v)}" for k, v in sorted(params.items()))
    to_sign = f"{method}&{percent('/')}&{percent(canonical)}"
    return base64.b64encode(hmac.new((secret + "&").encode(), to_sign.encode(), hashlib.sha1).digest()).decode()


class _Aliyun(BaseHTTPRequestHandler):
    provider: Provider
    nonces: set[str]

    def log_message(self, *args: object) -> None:
        return

    def _answer(self, status: int, body: dict[str, Any]) -> None:
        data = json.dumps({"RequestId": str(uuid.uuid4()).upper(), **body}, ensure_ascii=False).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json;charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _refuse(self, status: int, code: str, message: str) -> None:
        self.provider.refused.append(code)
        self._answer(status, {"HostId": "dysmsapi.aliyuncs.com", "Code": code, "Message": message})

    def do_POST(self) -> None:
        self._handle("POST")

    def do_GET(self) -> None:
        self._handle("GET")

    def _handle(self, method: str) -> None:
        p = self.provider
        length = int(self.headers.get("Content-Length", "0") or 0)
        form = self.rfile.read(length).decode() if length else ""
        params = dict(parse_qsl(urlsplit(self.path).query, keep_blank_values=True))
        params.update(parse_qsl(form, keep_blank_values=True))
        given = params.pop("Signature", "")
        if params.get("AccessKeyId") != p.secret_id:
            return self._refuse(404, "InvalidAccessKeyId.NotFound", "Specified access key is not found.")
        if params.get("SignatureMethod") != "HMAC-SHA1" or params.get("SignatureVersion") != "1.0":
            return self._refuse(400, "InvalidParameter", "The specified parameter SignatureMethod or "
                                "SignatureVersion is not valid.")
        try:
            stamp = datetime.strptime(params.get("Timestamp", ""), "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
        except ValueError:
            return self._refuse(400, "InvalidTimeStamp.Format", "Specified time stamp or date value is not well "
                                "formatted.")
        if abs((datetime.now(UTC) - stamp).total_seconds()) > 900:
            return self._refuse(400, "InvalidTimeStamp.Expired", "Specified time stamp or date value is expired.")
        expected = rpc_signature(p.secret_key, method, params)
        if not hmac.compare_digest(expected, given):
            return self._refuse(400, "SignatureDoesNotMatch", "Specified signature is not matched with our "
                                "calculation.")
        nonce = params.get("SignatureNonce", "")
        if not nonce or nonce in self.nonces:
            return self._refuse(400, "SignatureNonceUsed", "Specified signature nonce was used already.")
        self.nonces.add(nonce)
        if params.get("Action") != "SendSms" or params.get("Version") != "2017-05-25":
            return self._refuse(400, "InvalidAction.NotFound", "Specified api is not found, please check your url "
                                "and method.")
        if p.fail_next:
            code = p.fail_next.pop(0)
            p.refused.append(code)
            return self._answer(200, {"Code": code, "Message": "refused as asked by the test"})
        if params.get("SignName") != p.sign_name:
            p.refused.append("isv.SMS_SIGNATURE_ILLEGAL")
            return self._answer(200, {"Code": "isv.SMS_SIGNATURE_ILLEGAL", "Message": "该账号下找不到对应签名"})
        if params.get("TemplateCode") not in p.templates:
            p.refused.append("isv.SMS_TEMPLATE_ILLEGAL")
            return self._answer(200, {"Code": "isv.SMS_TEMPLATE_ILLEGAL", "Message": "该账号下找不到对应模板"})
        p.accepted.append(params)
        return self._answer(200, {"Code": "OK", "Message": "OK", "BizId": f"{uuid.uuid4().int % 10**15}^0"})


@contextmanager
def serve(kind: str, provider: Provider) -> Iterator[Provider]:
    """Run the local ``tencent`` or ``aliyun`` API on 127.0.0.1 (a free port) while in the block."""
    base = _Tencent if kind == "tencent" else _Aliyun
    handler = type(f"{base.__name__}Handler", (base,), {"provider": provider, "nonces": set()})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    provider.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield provider
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
