"""Local stand-ins for WeChat's and QQ's sign-in endpoints, on 127.0.0.1, built from the
providers' published documentation (the real ones cannot be reached from here).

WeChat (微信开放平台, 网站应用微信登录开发指南):
  GET /connect/qrconnect?appid&redirect_uri&response_type=code&scope=snsapi_login&state
      → the person scans; 302 to redirect_uri?code=CODE&state=STATE (refused: only state).
      The redirect_uri's host must be the app's registered 授权回调域.
  GET /sns/oauth2/access_token?appid&secret&code&grant_type=authorization_code
      → {"access_token","expires_in","refresh_token","openid","scope","unionid"}; errors with
      HTTP 200: {"errcode":40029,"errmsg":"invalid code"}, 40163 code been used, 40013 invalid
      appid, 40125 invalid appsecret.
  GET /sns/userinfo?access_token&openid → {"openid","nickname",…,"unionid"}; 40001 bad token.
QQ (QQ互联, 网站应用 OAuth2.0 开发文档):
  GET /oauth2.0/authorize?response_type=code&client_id&redirect_uri&state&scope
      → 302 to redirect_uri?code=CODE&state=STATE.
  GET /oauth2.0/token?grant_type=authorization_code&client_id&client_secret&code&redirect_uri[&fmt=json]
      → ``access_token=…&expires_in=7776000&refresh_token=…`` (JSON with fmt=json); errors as
      ``callback( {"error":100020,"error_description":"code is reused error"} );``. The code is
      bound to the redirect_uri it was issued for (100010 otherwise) and used once.
  GET /oauth2.0/me?access_token[&unionid=1][&fmt=json]
      → ``callback( {"client_id":"…","openid":"…"} );`` (JSON with fmt=json).
  GET /user/get_user_info?access_token&oauth_consumer_key&openid → {"ret":0,"msg":"",…}.

Each server records the token requests it answered (``exchanges``) so a test can prove what the
client sent. Codes and tokens are random; a code lives 10 minutes and is used once.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

CODE_SECONDS = 600


@dataclass
class Person:
    openid: str
    unionid: str | None
    nickname: str


@dataclass
class Issued:
    appid: str
    person: Person
    redirect_uri: str
    at: float
    used: bool = False


@dataclass
class FakeProvider:
    """One registered app (``appid``/``secret``) and the person who will scan or click next
    (``person``; None: the person refuses)."""

    appid: str
    secret: str
    callback_domain: str = ""  # WeChat's 授权回调域 / QQ's 网站回调域: host[:port]; "" = any
    person: Person | None = None
    codes: dict[str, Issued] = field(default_factory=dict)
    tokens: dict[str, Person] = field(default_factory=dict)
    exchanges: list[dict[str, str]] = field(default_factory=list)
    padding: int = 0  # characters of filler in sns/userinfo (a misbehaving or hostile answer)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def issue(self, redirect_uri: str) -> str:
        assert self.person is not None
        code = secrets.token_hex(16)
        with self.lock:
            self.codes[code] = Issued(self.appid, self.person, redirect_uri, time.time())
        return code

    def take(self, code: str) -> tuple[Issued | None, str]:
        """The code's grant, once: (grant, "") or (None, "unknown" | "used")."""
        with self.lock:
            found = self.codes.get(code)
            if found is None or time.time() - found.at > CODE_SECONDS:
                return None, "unknown"
            if found.used:
                return None, "used"
            found.used = True
            return found, ""

    def token_for(self, person: Person) -> str:
        token = secrets.token_hex(20)
        with self.lock:
            self.tokens[token] = person
        return token

    def domain_ok(self, redirect_uri: str) -> bool:
        return not self.callback_domain or urlsplit(redirect_uri).netloc == self.callback_domain


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        return

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        query = dict(parse_qsl(url.query, keep_blank_values=True))
        route = self.server.routes.get(url.path)
        if route is None:
            self._send(404, "text/plain", "not found")
            return
        route(self, query)

    def _send(self, status: int, kind: str, body: str, headers: dict[str, str] | None = None) -> None:
        data = body.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def json(self, data: dict[str, Any]) -> None:
        self._send(200, "application/json; encoding=utf-8", json.dumps(data, ensure_ascii=False))

    def text(self, body: str) -> None:
        self._send(200, "text/html; charset=utf-8", body)

    def redirect(self, location: str) -> None:
        self._send(302, "text/plain", "", {"Location": location})


def _add_query(url: str, params: dict[str, str]) -> str:
    return url + ("&" if "?" in url else "?") + urlencode(params)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    routes: dict[str, Any]


class _Running:
    def __init__(self, routes: dict[str, Any]) -> None:
        self.httpd = _Server(("127.0.0.1", 0), _Handler)
        self.httpd.routes = routes
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


class WeChatServer(_Running):
    """open.weixin.qq.com and api.weixin.qq.com in one local server."""

    def __init__(self, app: FakeProvider) -> None:
        self.app = app
        super().__init__({"/connect/qrconnect": self.qrconnect, "/sns/oauth2/access_token": self.access_token,
                          "/sns/userinfo": self.userinfo})  # fmt: skip

    def qrconnect(self, h: _Handler, q: dict[str, str]) -> None:
        app = self.app
        if q.get("appid") != app.appid:
            h.text("<p>AppID参数错误</p>")
            return
        redirect = q.get("redirect_uri", "")
        if not redirect or not app.domain_ok(redirect):
            h.text("<p>redirect_uri 参数错误</p>")
            return
        if q.get("scope") != "snsapi_login" or q.get("response_type") != "code":
            h.text("<p>scope 参数错误或没有 scope 权限</p>")
            return
        if app.person is None:  # the person refused: only the state comes back
            h.redirect(_add_query(redirect, {"state": q.get("state", "")}))
            return
        h.redirect(_add_query(redirect, {"code": app.issue(redirect), "state": q.get("state", "")}))

    def access_token(self, h: _Handler, q: dict[str, str]) -> None:
        app = self.app
        app.exchanges.append(dict(q))
        if q.get("appid") != app.appid:
            h.json({"errcode": 40013, "errmsg": "invalid appid"})
            return
        if q.get("secret") != app.secret:
            h.json({"errcode": 40125, "errmsg": "invalid appsecret"})
            return
        if q.get("grant_type") != "authorization_code":
            h.json({"errcode": 40002, "errmsg": "invalid grant_type"})
            return
        if not q.get("code"):
            h.json({"errcode": 41008, "errmsg": "missing code"})
            return
        grant, why = app.take(q["code"])
        if grant is None:
            h.json({"errcode": 40163, "errmsg": "code been used"} if why == "used"
                   else {"errcode": 40029, "errmsg": "invalid code"})  # fmt: skip
            return
        p = grant.person
        answer = {"access_token": app.token_for(p), "expires_in": 7200, "refresh_token": secrets.token_hex(20),
                  "openid": p.openid, "scope": "snsapi_login"}  # fmt: skip
        if p.unionid:
            answer["unionid"] = p.unionid
        h.json(answer)

    def userinfo(self, h: _Handler, q: dict[str, str]) -> None:
        person = self.app.tokens.get(q.get("access_token", ""))
        if person is None:
            h.json({"errcode": 40001, "errmsg": "invalid credential, access_token is invalid or not latest"})
            return
        if q.get("openid") != person.openid:
            h.json({"errcode": 40003, "errmsg": "invalid openid"})
            return
        info: dict[str, Any] = {"openid": person.openid, "nickname": person.nickname, "sex": 1, "province": "浙江",
                                "city": "杭州", "country": "中国", "headimgurl": "", "privilege": []}  # fmt: skip
        if person.unionid:
            info["unionid"] = person.unionid
        if self.app.padding:
            info["filler"] = "x" * self.app.padding
        h.json(info)


def _jsonp(data: dict[str, Any]) -> str:
    return f"callback( {json.dumps(data)} );\n"


class QQServer(_Running):
    """graph.qq.com: authorize, token, me and get_user_info."""

    def __init__(self, app: FakeProvider) -> None:
        self.app = app
        super().__init__({"/oauth2.0/authorize": self.authorize, "/oauth2.0/token": self.token,
                          "/oauth2.0/me": self.me, "/user/get_user_info": self.user_info})  # fmt: skip

    def authorize(self, h: _Handler, q: dict[str, str]) -> None:
        app = self.app
        redirect = q.get("redirect_uri", "")
        if q.get("client_id") != app.appid or q.get("response_type") != "code":
            h.text("<p>100008: client id is illegal / response_type</p>")
            return
        if not redirect or not app.domain_ok(redirect):
            h.text("<p>100010: redirect uri is illegal</p>")
            return
        if app.person is None:
            h.redirect(_add_query(redirect, {"usercancel": "1", "state": q.get("state", "")}))
            return
        h.redirect(_add_query(redirect, {"code": app.issue(redirect), "state": q.get("state", "")}))

    def _error(self, h: _Handler, q: dict[str, str], code: int, words: str) -> None:
        body = {"error": code, "error_description": words}
        h.json(body) if q.get("fmt") == "json" else h.text(_jsonp(body))

    def token(self, h: _Handler, q: dict[str, str]) -> None:
        app = self.app
        app.exchanges.append(dict(q))
        if q.get("grant_type") != "authorization_code":
            self._error(h, q, 100005, "param grant_type is wrong")
            return
        if q.get("client_id") != app.appid:
            self._error(h, q, 100008, "client id is illegal")
            return
        if q.get("client_secret") != app.secret:
            self._error(h, q, 100006, "client secret is wrong")
            return
        grant, why = app.take(q.get("code", ""))
        if grant is None:
            self._error(h, q, 100020 if why == "used" else 100019,
                        "code is reused error" if why == "used" else "code to access token error")
            return
        if q.get("redirect_uri") != grant.redirect_uri:
            self._error(h, q, 100010, "redirect uri is illegal")
            return
        answer = {"access_token": app.token_for(grant.person), "expires_in": "7776000",
                  "refresh_token": secrets.token_hex(20)}  # fmt: skip
        h.json(answer) if q.get("fmt") == "json" else h.text(urlencode(answer))

    def me(self, h: _Handler, q: dict[str, str]) -> None:
        person = self.app.tokens.get(q.get("access_token", ""))
        if person is None:
            self._error(h, q, 100016, "access token check failed")
            return
        body: dict[str, Any] = {"client_id": self.app.appid, "openid": person.openid}
        if q.get("unionid") == "1" and person.unionid:
            body["unionid"] = person.unionid
        h.json(body) if q.get("fmt") == "json" else h.text(_jsonp(body))

    def user_info(self, h: _Handler, q: dict[str, str]) -> None:
        person = self.app.tokens.get(q.get("access_token", ""))
        if person is None or q.get("oauth_consumer_key") != self.app.appid or q.get("openid") != person.openid:
            h.json({"ret": 100016, "msg": "access token check failed"})
            return
        h.json({"ret": 0, "msg": "", "is_lost": 0, "nickname": person.nickname, "gender": "男",
                "figureurl": "", "figureurl_qq_1": ""})  # fmt: skip
