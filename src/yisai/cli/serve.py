"""`yisai serve`: the web platform (public site, console, API) under uvicorn."""

from __future__ import annotations

import os
import secrets
from dataclasses import replace

import typer

from yisai.cli.hints import cli_message
from yisai.i18n import tr


def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="监听地址"),
    port: int = typer.Option(8000, "--port", help="端口"),
    db: str = typer.Option(None, "--db", help="数据库文件或地址 (也可用 YISAI_DATABASE_URL / YISAI_DB)"),
    workers: int = typer.Option(1, "--workers", min=1, max=32, help="工作进程数"),
    load_demo: bool = typer.Option(False, "--load-demo", help="先载入两个样例比赛 (赛程过半) 与演示账号"),
    demo_scale: float = typer.Option(0.5, "--demo-scale", min=0.05, max=2.0, help="演示人数比例"),
    refresh: float = typer.Option(2.0, "--refresh", min=0.0, max=60.0,
                                  help="公开页面的表格最多每N秒重新生成一次 (成绩录入后最迟N秒显示)"),
    qualifier: str = typer.Option(None, "--qualifier", envvar="YISAI_QUALIFIER_EVENT",
                                  help="开放该比赛的网络海选对局 (WebSocket /live/ws) 与棋手页面 /play"),
    dev_outbox: bool = typer.Option(False, "--dev-outbox", envvar="YISAI_DEV_OUTBOX",
                                    help="开发模式: 不发短信, 验证码显示在 /play/dev/outbox 并写入日志"),
    redis: str = typer.Option(None, "--redis", envvar="YISAI_REDIS_URL",
                              help="Redis 地址, 多个进程分担线上对局 (如 redis://127.0.0.1:6379/0); 不填则单进程"),
    spectator_delay: float = typer.Option(None, "--spectator-delay", min=0, max=3600,
                                          help="观战延迟秒数 (默认 60; 0 = 实时; 对局者从不延迟)"),
    public_url: str = typer.Option(
        "", "--public-url", envvar="YISAI_PUBLIC_URL",
        help="本站对外地址 (如 https://yisai.example.cn), 微信/QQ登录的回调地址以它开头; 不填则不开启微信/QQ登录"),
    forwarded_allow_ips: str = typer.Option(
        "", "--forwarded-allow-ips", envvar="YISAI_FORWARDED_ALLOW_IPS",
        help="只信任这些地址 (反向代理, 逗号分隔) 发来的 X-Forwarded-For; 默认不信任任何地址"),
    max_body_kb: int = typer.Option(None, "--max-body-kb", min=1, envvar="YISAI_MAX_BODY_KB",
                                    help="请求体上限 (KB, 默认 1024): 超过即答 413, 不读取"),
    max_upload_mb: int = typer.Option(None, "--max-upload-mb", min=1, envvar="YISAI_MAX_UPLOAD_MB",
                                      help="上传地址的请求体上限 (MB, 默认 70; 各上传地址另有自己的文件上限)"),
    code_proof_bits: int = typer.Option(None, "--code-proof-bits", min=1, max=28, envvar="YISAI_CODE_PROOF_BITS",
                                        help="获取短信验证码前浏览器须完成的工作量证明难度 (SHA-256前导零位数, 默认16, 电脑浏览器约1秒)"),
    log_format: str = typer.Option("text", "--log-format", envvar="YISAI_LOG_FORMAT",
                                   help="日志格式: text (一行文字) 或 json (每行一个JSON对象); 每个请求与每次写入一行"),
) -> None:
    """启动网站: 公开成绩页、裁判工作台与 JSON API (web server)."""
    from yisai.cli.session import fail, say
    from yisai.services.context import ServiceError, open_context
    from yisai.services.settings import settings_from_environment

    if log_format not in ("text", "json"):
        fail(tr(f"--log-format 只能是 text 或 json (收到 {log_format})",
                f"--log-format is text or json (got {log_format})"))
    if qualifier and workers > 1 and not redis:
        fail(tr("多个工作进程开放线上对局时必须指定 --redis (否则每个进程各管一套对局)",
                "several workers serving live games need --redis (else each process keeps its own games)"))
    try:
        settings = settings_from_environment(os.environ, database=db)
        from yisai.reach.config import load_sms_config

        sms = load_sms_config(os.environ)  # checked here so a bad file stops the start, not each worker

        from yisai.services.oauth_providers import PROVIDER_NAMES, providers_from_environment

        oauth = providers_from_environment(os.environ)  # a half-made WeChat/QQ setting stops here, in words
        from yisai.services.payments.registry import providers_from_environment as payment_providers

        payments = payment_providers(os.environ)  # and a half-made payment merchant (docs/fees.md)
        # The schema check: a brand-new SQLite file is created at head, an old schema refused.
        with open_context(settings) as ctx:
            if load_demo:
                from yisai.services.events import list_events
                from yisai.web.demo_data import demo_accounts
                from yisai.web.demo_data import load_demo as load

                with ctx.work() as work:
                    empty = not list_events(work)
                if empty:
                    say(tr("载入样例比赛 (赛程过半) …", "loading the seed events (half-way) …"))
                    ids = load(replace(settings, auto_upgrade=False), scale=demo_scale)
                    accounts = demo_accounts(ctx, ids)
                    say(tr("演示账号 (账号 / 密码 / 角色):", "demo accounts (login / password / role):"), "bold")
                    for a in accounts:
                        say(f"  {a.login} / {a.password} / {a.role.label.render()}")
            from yisai.services.accounts import needs_first_account

            with ctx.work() as work:
                first = needs_first_account(work)
            if first:
                _first_account_help(db)
    except ServiceError as exc:
        fail(cli_message(exc), exc.render_details(), exc.exit_code)
    try:  # the live socket caps of the environment, checked here so a bad one stops the start in words
        from yisai.web.app import proof_bits_from_environment, sockets_from_environment

        sockets_from_environment(os.environ)
        proof_bits_from_environment(os.environ)
    except ValueError as exc:
        fail(str(exc))
    import uvicorn

    secret = os.environ.get("YISAI_WEB_SECRET") or secrets.token_urlsafe(32)
    os.environ["YISAI_WEB_SECRET"] = secret
    os.environ["YISAI_DATABASE_URL"] = settings.database
    os.environ["YISAI_WEB_REFRESH"] = str(refresh)
    if qualifier:
        os.environ["YISAI_QUALIFIER_EVENT"] = qualifier
    if dev_outbox:
        os.environ["YISAI_DEV_OUTBOX"] = "1"
    if redis:
        os.environ["YISAI_REDIS_URL"] = redis
    if spectator_delay is not None:
        os.environ["YISAI_SPECTATOR_DELAY"] = str(spectator_delay)
    if public_url:
        os.environ["YISAI_PUBLIC_URL"] = public_url
    if max_body_kb is not None:
        os.environ["YISAI_MAX_BODY_KB"] = str(max_body_kb)
    if max_upload_mb is not None:
        os.environ["YISAI_MAX_UPLOAD_MB"] = str(max_upload_mb)
    if code_proof_bits is not None:
        os.environ["YISAI_CODE_PROOF_BITS"] = str(code_proof_bits)
    os.environ["YISAI_LOG_FORMAT"] = log_format
    if workers > 1:
        _multiprocess_metrics()
    say(tr(f"公开页面: http://{host}:{port}/   工作台: http://{host}:{port}/console   API: http://{host}:{port}/docs",
           f"public site: http://{host}:{port}/   console: http://{host}:{port}/console   API: http://{host}:{port}/docs"))
    if qualifier:
        say(tr(f"网络海选 棋手页面: http://{host}:{port}/play", f"online qualifier, players: http://{host}:{port}/play"))
    if sms.provider != "outbox":
        say(tr(f"短信通道: {sms.provider} (签名 {sms.account.sign_name if sms.account else ''})",
               f"SMS provider: {sms.provider}"))
    for p in payments:
        say(tr(f"在线缴费已开通: {p.label.zh} (商户号 {p.merchant_id})", f"online payment: {p.label.en} (merchant {p.merchant_id})"))
    if dev_outbox:
        say(tr(f"开发者发件箱 (验证码): http://{host}:{port}/play/dev/outbox",
               f"developer outbox (sign-in codes): http://{host}:{port}/play/dev/outbox"))
    for key in oauth:  # the address the operator registers with the provider
        name = PROVIDER_NAMES[key]
        if not public_url:  # a callback from the request's Host header could be pointed anywhere
            say(tr(f"{name.zh}登录未开启: 须用 --public-url 指定本站对外地址 (回调地址以它开头)",
                   f"{name.en} sign-in is off: it needs the site's public address (--public-url)"), "yellow")
            continue
        callback = f"{public_url.rstrip('/')}/play/oauth/{key}/callback"
        say(tr(f"{name.zh}登录已开启, 回调地址: {callback}", f"{name.en} sign-in is on, callback: {callback}"))
    say(tr("按 Ctrl-C 停止", "press Ctrl-C to stop"))
    from yisai.live.server import UVICORN_WS

    # Proxy headers decide the client address the login and code limits count by: trusted only
    # from the proxies named here (uvicorn would otherwise trust them from 127.0.0.1).
    proxies = forwarded_allow_ips.strip()
    uvicorn.run("yisai.web.app:app_from_environment", factory=True, host=host, port=port,
                workers=workers, log_level="warning", access_log=False,
                proxy_headers=bool(proxies), forwarded_allow_ips=proxies or None, **UVICORN_WS)


def _multiprocess_metrics() -> None:
    """Several workers share their Prometheus samples through files in one folder
    (``PROMETHEUS_MULTIPROC_DIR``, a fresh temporary one unless named); a folder left by an
    earlier run is emptied, or its dead workers' counts would be added in."""
    import tempfile
    from pathlib import Path

    from yisai.services.metrics import MULTIPROCESS_ENV

    named = os.environ.get(MULTIPROCESS_ENV)
    folder = Path(named) if named else Path(tempfile.mkdtemp(prefix="yisai-metrics-"))
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.db"):
        old.unlink()
    os.environ[MULTIPROCESS_ENV] = str(folder)


def _first_account_help(db: str | None) -> None:
    """A fresh database has no account, so nobody can sign in to the console: say how to make
    the first one (in another terminal, while the server runs; no restart needed)."""
    from yisai.cli.session import say

    where = f" --db {db}" if db else ""
    say(tr("数据库中还没有任何账号, 工作台暂时无法登录。请在另一个终端创建第一个账号 (无需重启):",
           "the database has no account yet, so nobody can sign in to the console. In another terminal, "
           "create the first one (no restart needed):"), "bold yellow")
    say(f"  echo '{tr('至少8位的密码', 'a-password-of-8+')}' | yisai account add admin --role operator "
        f"--password-stdin{where}")
    say(f"  echo '{tr('至少8位的密码', 'a-password-of-8+')}' | yisai account add director "
        f"--role chief_referee --password-stdin{where}")
    say(tr("运营账号在工作台“账号管理”页为裁判员、领队建号; 详见 README “从空数据库开始”。",
           "an operator makes referee and team leader accounts on the console's Accounts page; "
           "see the README, “From an empty database”."))


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
