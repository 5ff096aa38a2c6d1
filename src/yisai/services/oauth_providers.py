"""WeChat (微信开放平台 网站应用扫码登录) and QQ (QQ互联) sign-in: the OAuth 2.0 code exchange
through Authlib's httpx client, adapted to what each provider really does.

Both providers deviate from RFC 6749 and Authlib's compliance hooks absorb the differences:
WeChat names the client ``appid``/``secret``, answers errors with HTTP 200 and
``{"errcode": …, "errmsg": …}``; QQ's token endpoint answers ``access_token=…&expires_in=…``
(a query string) and its errors and ``/me`` as JSONP ``callback( {...} );``. Neither provider
accepts PKCE (their authorize endpoints take no ``code_challenge``), so the protection is the
``state`` the web front end binds to the browser's signed session and uses once.

Configuration comes from the entry point (``providers_from_environment``), never from the
database; the secrets are never logged (``repr=False``) and the access tokens are dropped once
the person's id is known. Every answer is bounded (size, time) before it is parsed.
"""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

import httpx
from authlib.integrations.base_client import OAuthError

with warnings.catch_warnings():  # Authlib >= 1.7 asks for httpx2 on every start; the project (and
    warnings.simplefilter("ignore", DeprecationWarning)  # starlette's test client) still use httpx
    from authlib.integrations.httpx_client import OAuth2Client

from yisai.i18n import Text
from yisai.services.errors import InputError, ServiceError

WECHAT, QQ = "wechat", "qq"
WECHAT_MP = "wechat_mp"  # 公众号网页授权 (snsapi_base): the payer's openid for WeChat Pay JSAPI
PROVIDER_NAMES = {WECHAT: Text("微信", "WeChat"), QQ: Text("QQ", "QQ"), WECHAT_MP: Text("微信", "WeChat")}
TIMEOUT_SECONDS = 10.0
MAX_ANSWER_BYTES = 64 * 1024  # every documented answer is well under 2 KB
MAX_SECRET_FILE_BYTES = 4096

WECHAT_OPEN = "https://open.weixin.qq.com"
WECHAT_API = "https://api.weixin.qq.com"
QQ_GRAPH = "https://graph.qq.com"


@dataclass(frozen=True)
class Provider:
    """One provider's registration (``appid`` and its secret) and endpoints (overridable so
    tests point them at a local server)."""

    key: str  # WECHAT | QQ
    appid: str
    secret: str = field(repr=False)
    authorize_url: str = ""
    token_url: str = ""
    identity_url: str = ""  # WeChat sns/userinfo; QQ oauth2.0/me
    profile_url: str = ""  # QQ user/get_user_info (WeChat has none besides sns/userinfo)
    scope: str = ""  # "" = the sign-in scope (snsapi_login / get_user_info)

    @property
    def name(self) -> Text:
        return PROVIDER_NAMES[self.key]

    @property
    def wechat_style(self) -> bool:
        """WeChat's endpoints (``appid``/``secret``, ``#wechat_redirect``), login or 公众号."""
        return self.key in (WECHAT, WECHAT_MP)


def wechat(appid: str, secret: str, *, open_base: str = WECHAT_OPEN, api_base: str = WECHAT_API) -> Provider:
    o, a = open_base.rstrip("/"), api_base.rstrip("/")
    return Provider(WECHAT, appid, secret, authorize_url=f"{o}/connect/qrconnect",
                    token_url=f"{a}/sns/oauth2/access_token", identity_url=f"{a}/sns/userinfo")  # fmt: skip


def wechat_mp(appid: str, secret: str, *, open_base: str = WECHAT_OPEN, api_base: str = WECHAT_API) -> Provider:
    """微信公众号网页授权 with ``snsapi_base``: silent inside WeChat, it gives the openid only (the
    token answer carries it; no user information is asked)."""
    o, a = open_base.rstrip("/"), api_base.rstrip("/")
    return Provider(WECHAT_MP, appid, secret, authorize_url=f"{o}/connect/oauth2/authorize",
                    token_url=f"{a}/sns/oauth2/access_token", scope="snsapi_base")  # fmt: skip


def qq(appid: str, appkey: str, *, base: str = QQ_GRAPH) -> Provider:
    b = base.rstrip("/")
    return Provider(QQ, appid, appkey, authorize_url=f"{b}/oauth2.0/authorize", token_url=f"{b}/oauth2.0/token",
                    identity_url=f"{b}/oauth2.0/me", profile_url=f"{b}/user/get_user_info")  # fmt: skip


@dataclass(frozen=True)
class Identity:
    """Who the provider says signed in: ``openid`` (per app) and ``unionid`` (across the
    organiser's apps, when the provider grants it). Nothing else is kept."""

    provider: str
    openid: str
    unionid: str | None = None


class ProviderError(ServiceError):
    """The provider refused or could not be reached: its code and words, shown to the person."""

    status = 502
    default_code = "oauth_provider"


# The documented error codes people actually meet, in words; others are shown with their code.
WECHAT_WORDS = {
    40029: Text("授权码无效 (可能已过期), 请重新扫码", "the authorisation code is invalid or expired; scan again"),
    40163: Text("授权码已被使用, 请重新扫码", "the authorisation code was already used; scan again"),
    41008: Text("缺少授权码, 请重新扫码", "the authorisation code is missing; scan again"),
    40013: Text("AppID 无效, 请运营人员检查微信登录设置", "invalid AppID: the operator must check the WeChat settings"),
    40125: Text("AppSecret 无效, 请运营人员检查微信登录设置", "invalid AppSecret: the operator must check the WeChat settings"),
    42001: Text("微信登录凭证已过期, 请重新扫码", "the WeChat access token expired; scan again"),
}
QQ_WORDS = {
    100019: Text("授权码无效或已过期, 请重新登录QQ", "the authorisation code is invalid or expired; sign in with QQ again"),
    100020: Text("授权码已被使用, 请重新登录QQ", "the authorisation code was already used; sign in with QQ again"),
    100010: Text("回调地址不合法, 请运营人员检查QQ互联的回调地址", "illegal redirect address: the operator must check QQ Connect's callback"),
    100013: Text("QQ登录凭证无效, 请重新登录QQ", "the QQ access token is invalid; sign in with QQ again"),
    100016: Text("QQ登录凭证校验失败, 请重新登录QQ", "the QQ access token check failed; sign in with QQ again"),
    100003: Text("QQ登录凭证已过期, 请重新登录QQ", "the QQ access token expired; sign in with QQ again"),
    100006: Text("AppKey 无效, 请运营人员检查QQ登录设置", "invalid AppKey: the operator must check the QQ settings"),
}


def provider_error(key: str, code: object, message: str) -> ProviderError:
    name = PROVIDER_NAMES[key]
    number = _int(code)
    words = (WECHAT_WORDS if key == WECHAT else QQ_WORDS).get(number) if number is not None else None
    if key == WECHAT_MP:  # the payer's openid for WeChat Pay: no scanning, the operator's secret
        return ProviderError(Text(f"微信授权失败 ({code}: {message}): 请回到费用页重新支付; 一再失败请运营人员检查 "
                                  "YISAI_WECHATPAY_APPID 与 YISAI_WECHATPAY_MP_SECRET",
                                  f"WeChat authorisation failed ({code}: {message}): start the payment again from the "
                                  "fees page; if it fails again the operator must check YISAI_WECHATPAY_APPID and "
                                  "YISAI_WECHATPAY_MP_SECRET"), code="wechat_mp_oauth", params={"code": str(code)})
    said = f"{code}: {message}".strip(": ")
    if words is not None:
        return ProviderError(Text(f"{name.zh}登录失败: {words.zh} ({said})", f"{name.en} sign-in failed: {words.en} ({said})"),
                             params={"provider": key, "code": str(code)})  # fmt: skip
    return ProviderError(Text(f"{name.zh}登录失败, {name.zh}返回错误 {said}", f"{name.en} sign-in failed: {name.en} answered {said}"),
                         params={"provider": key, "code": str(code)})  # fmt: skip


def _int(value: object) -> int | None:
    try:
        return int(str(value))
    except ValueError:
        return None


# ------------------------------------------------------------------ answers


JSONP = re.compile(r"^\s*callback\(\s*(\{.*\})\s*\)\s*;?\s*$", re.DOTALL)


def _bounded(p: Provider, resp: httpx.Response) -> str:
    """The answer's text, refused when larger than any documented answer could be."""
    if len(resp.content) > MAX_ANSWER_BYTES:
        raise provider_error(p.key, "too_large", f"answer larger than {MAX_ANSWER_BYTES} bytes")
    return resp.text


def _object(p: Provider, resp: httpx.Response) -> dict[str, Any]:
    """A JSON object from JSON, QQ's JSONP ``callback( {...} );`` or QQ's query string."""
    text = _bounded(p, resp).strip()
    jsonp = JSONP.match(text)
    try:
        found = json.loads(jsonp.group(1) if jsonp else text)
    except ValueError:
        pairs = parse_qsl(text, keep_blank_values=True)
        if not pairs or resp.status_code >= 400:
            raise provider_error(p.key, resp.status_code, "unreadable answer") from None
        return dict(pairs)
    if not isinstance(found, dict):
        raise provider_error(p.key, resp.status_code, "unreadable answer")
    return found


def _token_answer(p: Provider) -> Any:
    """Authlib's ``access_token_response`` hook: the provider's answer as the JSON RFC 6749
    expects (WeChat's ``errcode`` and QQ's numeric ``error`` become ``error``)."""

    def hook(resp: httpx.Response) -> httpx.Response:
        data = _object(p, resp)
        if "errcode" in data and str(data["errcode"]) != "0":
            data = {"error": str(data["errcode"]), "error_description": str(data.get("errmsg", ""))}
        elif "error" in data:
            data = {"error": str(data["error"]), "error_description": str(data.get("error_description", ""))}
        status = 400 if "error" in data else 200
        return type(resp)(status, json=data, request=resp.request)  # httpx's class, or httpx2's

    return hook


def _secret_in_query(names: tuple[str, str]) -> Any:
    """An Authlib client-auth method: the client id and secret as query parameters of a GET
    (WeChat: ``appid``/``secret``; QQ: ``client_id``/``client_secret``)."""

    def encode(client: Any, method: str, uri: str, headers: Any, body: Any) -> tuple[str, Any, Any]:
        sep = "&" if "?" in uri else "?"
        return uri + sep + urlencode({names[0]: client.client_id, names[1]: client.client_secret}), headers, body

    return encode


def _declared_size(p: Provider) -> Any:
    """An httpx response hook: an answer that declares more than ``MAX_ANSWER_BYTES`` is refused
    before its body is read (one without a length is measured again before it is parsed)."""

    def check(resp: httpx.Response) -> None:
        declared = resp.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > MAX_ANSWER_BYTES:
            raise provider_error(p.key, "too_large", f"answer larger than {MAX_ANSWER_BYTES} bytes")

    return check


def _client(p: Provider, redirect_uri: str) -> OAuth2Client:
    names = ("appid", "secret") if p.wechat_style else ("client_id", "client_secret")
    client = OAuth2Client(client_id=p.appid, client_secret=p.secret, redirect_uri=redirect_uri,
                          scope=p.scope or ("snsapi_login" if p.key == WECHAT else "get_user_info"),
                          token_endpoint_auth_method="secret_in_query", timeout=TIMEOUT_SECONDS,
                          event_hooks={"response": [_declared_size(p)]})  # fmt: skip
    client.register_client_auth_method(("secret_in_query", _secret_in_query(names)))
    client.register_compliance_hook("access_token_response", _token_answer(p))
    return client


# ------------------------------------------------------------------ the two steps


def authorization_url(p: Provider, redirect_uri: str, state: str) -> str:
    """Where the browser goes: WeChat's QR page (``appid``, ``#wechat_redirect``, parameters in
    the documented order) or QQ's authorize page (RFC 6749 as is)."""
    with _client(p, redirect_uri) as client:
        url, _ = client.create_authorization_url(p.authorize_url, state=state)
    if not p.wechat_style:
        return str(url)
    query = dict(parse_qsl(urlsplit(url).query))
    ordered = [("appid", p.appid), ("redirect_uri", redirect_uri), ("response_type", "code"),
               ("scope", query["scope"]), ("state", state)]  # fmt: skip
    return f"{p.authorize_url}?{urlencode(ordered)}#wechat_redirect"


def fetch_identity(p: Provider, code: str, redirect_uri: str) -> Identity:
    """Exchange the code (once) for a token, then ask who it belongs to. Raises ``ProviderError``
    with the provider's own code and words."""
    if not code or len(code) > 512:
        raise InputError(Text("授权码缺失或无效, 请重新登录", "the authorisation code is missing or invalid; try again"),
                         code="oauth_no_code")  # fmt: skip
    try:
        with _client(p, redirect_uri) as client:
            token = client.fetch_token(p.token_url, code=code, method="GET", grant_type="authorization_code")
            access = str(token.get("access_token") or "")
            if not access:
                raise provider_error(p.key, "no_token", "no access_token in the answer")
            return _wechat_identity(p, client, token, access) if p.key == WECHAT else _qq_identity(p, client, access)
    except OAuthError as exc:
        raise provider_error(p.key, exc.error, exc.description or "") from None
    except httpx.HTTPError as exc:
        name = p.name
        raise ProviderError(Text(f"无法连接{name.zh}服务器, 请稍后再试 ({type(exc).__name__})",
                                 f"cannot reach {name.en}; try again later ({type(exc).__name__})"),
                            code="oauth_unreachable", params={"provider": p.key}) from None


def fetch_openid(p: Provider, code: str, redirect_uri: str) -> str:
    """公众号网页授权 (snsapi_base): exchange the code (once) for the payer's openid, which the
    token answer carries; the access token is dropped unused."""
    if not code or len(code) > 512:
        raise InputError(Text("微信授权码缺失或无效, 请回到费用页重新支付", "the WeChat authorisation code is missing or "
                              "invalid; start the payment again"), code="oauth_no_code")  # fmt: skip
    try:
        with _client(p, redirect_uri) as client:
            token = client.fetch_token(p.token_url, code=code, method="GET", grant_type="authorization_code")
    except OAuthError as exc:
        raise provider_error(p.key, exc.error, exc.description or "") from None
    except httpx.HTTPError as exc:
        raise ProviderError(Text(f"无法连接微信服务器, 请稍后再试 ({type(exc).__name__})",
                                 f"cannot reach WeChat; try again later ({type(exc).__name__})"),
                            code="oauth_unreachable", params={"provider": p.key}) from None
    return _checked_id(p, str(token.get("openid") or ""))


def wechat_mp_from_environment(env: Mapping[str, str], appid: str) -> Provider | None:
    """The 公众号 authorisation for WeChat Pay JSAPI: the merchant's appid (a 公众号 bound to the
    merchant) and ``YISAI_WECHATPAY_MP_SECRET`` (or ``…_FILE``); None without the secret. The
    endpoints are WeChat's, or ``YISAI_WECHAT_OPEN_URL`` / ``YISAI_WECHAT_API_URL`` (tests)."""
    secret = _secret(env, "YISAI_WECHATPAY_MP_SECRET")
    if not secret or not appid:
        return None
    return wechat_mp(appid, secret, open_base=env.get("YISAI_WECHAT_OPEN_URL") or WECHAT_OPEN,
                     api_base=env.get("YISAI_WECHAT_API_URL") or WECHAT_API)


def _get(p: Provider, client: OAuth2Client, url: str, params: dict[str, str]) -> dict[str, Any]:
    resp = client.request("GET", url, params=params, withhold_token=True)
    return _object(p, resp)


def _wechat_identity(p: Provider, client: OAuth2Client, token: Mapping[str, Any], access: str) -> Identity:
    openid = str(token.get("openid") or "")
    info = _get(p, client, p.identity_url, {"access_token": access, "openid": openid})
    if "errcode" in info and str(info["errcode"]) != "0":
        raise provider_error(p.key, info["errcode"], str(info.get("errmsg", "")))
    if not openid or str(info.get("openid", "")) != openid:
        raise provider_error(p.key, "openid", "the user information names another openid")
    unionid = str(info.get("unionid") or token.get("unionid") or "") or None
    return Identity(WECHAT, _checked_id(p, openid), _checked_id(p, unionid) if unionid else None)


def _qq_identity(p: Provider, client: OAuth2Client, access: str) -> Identity:
    me = _get(p, client, p.identity_url, {"access_token": access, "unionid": "1"})
    if "error" in me:
        raise provider_error(p.key, me["error"], str(me.get("error_description", "")))
    if str(me.get("client_id", "")) != p.appid:  # a token issued to another app: refuse it
        raise provider_error(p.key, "client_id", "the access token was issued to another application")
    openid = _checked_id(p, str(me.get("openid") or ""))
    info = _get(p, client, p.profile_url, {"access_token": access, "oauth_consumer_key": p.appid, "openid": openid})
    if str(info.get("ret", "0")) != "0":
        raise provider_error(p.key, info.get("ret"), str(info.get("msg", "")))
    unionid = str(me.get("unionid") or "") or None
    return Identity(QQ, openid, _checked_id(p, unionid) if unionid else None)


ID_RE = re.compile(r"^[A-Za-z0-9_\-]{1,128}$")


def _checked_id(p: Provider, value: str) -> str:
    if not ID_RE.match(value):
        raise provider_error(p.key, "openid", "missing or malformed openid/unionid")
    return value


# ------------------------------------------------------------------ configuration


ENV_NAMES = {
    WECHAT: ("YISAI_WECHAT_APPID", "YISAI_WECHAT_SECRET"),
    QQ: ("YISAI_QQ_APPID", "YISAI_QQ_APPKEY"),
}


def _secret(env: Mapping[str, str], name: str) -> str:
    """``NAME`` or the file named by ``NAME_FILE`` (a container secret), stripped."""
    direct = env.get(name, "").strip()
    if direct:
        return direct
    path = env.get(f"{name}_FILE", "").strip()
    if not path:
        return ""
    try:
        raw = Path(path).read_bytes()[: MAX_SECRET_FILE_BYTES + 1]
    except OSError as exc:
        raise InputError(Text(f"{name}_FILE 无法读取: {path} ({exc.strerror})", f"{name}_FILE cannot be read: {path} ({exc.strerror})"),
                         code="bad_secret_file") from None  # fmt: skip
    if len(raw) > MAX_SECRET_FILE_BYTES:
        raise InputError(Text(f"{name}_FILE 过大 (应只含密钥一行): {path}", f"{name}_FILE is too large (one line, the secret): {path}"),
                         code="bad_secret_file")  # fmt: skip
    return raw.decode("utf-8", errors="replace").strip()


def providers_from_environment(env: Mapping[str, str]) -> dict[str, Provider]:
    """The configured providers (for entry points only): a provider appears when both its id
    and its secret are set; one without the other is a mistake, said in words."""
    found: dict[str, Provider] = {}
    for key, (id_name, secret_name) in ENV_NAMES.items():
        appid, secret = env.get(id_name, "").strip(), _secret(env, secret_name)
        if not appid and not secret:
            continue
        if not appid or not secret:
            missing = id_name if not appid else f"{secret_name} / {secret_name}_FILE"
            raise InputError(Text(f"{PROVIDER_NAMES[key].zh}登录设置不完整: 缺少 {missing}",
                                  f"{PROVIDER_NAMES[key].en} sign-in is half configured: {missing} is missing"),
                             code="oauth_half_configured")  # fmt: skip
        if key == WECHAT:
            found[key] = wechat(appid, secret, open_base=env.get("YISAI_WECHAT_OPEN_URL") or WECHAT_OPEN,
                                api_base=env.get("YISAI_WECHAT_API_URL") or WECHAT_API)  # fmt: skip
        else:
            found[key] = qq(appid, secret, base=env.get("YISAI_QQ_API_URL") or QQ_GRAPH)
    return found


__all__ = ["PROVIDER_NAMES", "QQ", "WECHAT", "WECHAT_MP", "Identity", "Provider", "ProviderError",
           "authorization_url", "fetch_identity", "fetch_openid", "providers_from_environment", "qq", "wechat",
           "wechat_mp", "wechat_mp_from_environment"]  # fmt: skip
