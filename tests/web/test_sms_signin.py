"""#35: with an SMS provider configured, the qualifier's sign-in code goes through the provider's
SDK to the local server (which checks the signature) and the player signs in with the code the
provider received; the developer outbox is then gone; the event's budget refuses a code with
when to try again; the operator's page shows a provider's refusal in words."""

from __future__ import annotations

import json
import re
from datetime import datetime
from pathlib import Path

from fastapi.testclient import TestClient

from tests.conftest import REGULATIONS
from tests.reach.providers import Provider, serve
from tests.web.conftest import Clock
from tests.web.proof import TEST_PROOF_BITS, proved
from yisai.qualifier.notices import FEE_DUE, SIGN_IN_CODE
from yisai.reach.config import SmsConfig
from yisai.reach.senders import ProviderAccount
from yisai.services import notices
from yisai.services.accounts import create_user
from yisai.services.context import Refused, open_context
from yisai.services.events import create_event
from yisai.services.identity import Actor, Role
from yisai.services.settings import Settings
from yisai.web.app import create_app
from yisai.web.notices import work_once

SID, KEY = "LTAI5tWebSignIn00000", "web-sign-in-secret-0"
IN_PERIOD_1 = datetime(2025, 5, 10, 12)
REFUSED = Refused.status


def _csrf(client: TestClient, path: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', client.get(path).text)
    assert found, path
    return found.group(1)


def test_sign_in_by_a_code_sent_through_alibaba_cloud(tmp_path: Path) -> None:
    db = str(tmp_path / "sms.sqlite")
    with open_context(db) as ctx, ctx.work() as w:
        event = create_event(w, REGULATIONS / "2025-shanhai-cup.toml", seed=1)
        create_user(w, "ops", "运营", Role.OPERATOR, "operator-password")
    provider = Provider(SID, KEY, "弈赛", {"SMS_100"})
    with serve("aliyun", provider) as p:
        account = ProviderAccount(secret_id=SID, secret_key=KEY, sign_name="弈赛", endpoint=p.endpoint,
                                  scheme="http", templates={SIGN_IN_CODE: "SMS_100", FEE_DUE: "SMS_unapproved"})
        app = create_app(Settings(database=db, clock=Clock(IN_PERIOD_1)), secret="s", qualifier_event=str(event.id),
                         dev_outbox=True, sms=SmsConfig("aliyun", account), notice_seconds=3600, proof_bits=TEST_PROOF_BITS)  # fmt: skip
        with TestClient(app) as client:
            token = _csrf(client, "/play/signin")
            sent = client.post("/play/code", data=proved(client, {"csrf": token, "phone": "+86 137-0000-1234"}))
            assert sent.status_code == 200 and "验证码已发送至 137****1234" in sent.text
            [got] = p.accepted  # delivered right after the answer, through the SDK, signature checked
            assert got["PhoneNumbers"] == "13700001234" and got["TemplateCode"] == "SMS_100"
            code = json.loads(got["TemplateParam"])["code"]
            assert client.get("/play/dev/outbox").status_code == 404  # a provider is configured
            r = client.post("/play/signin", data={"csrf": token, "phone": "13700001234", "code": code},
                            follow_redirects=False)
            assert r.status_code == 303 and r.headers["location"] == "/play"

            with open_context(db, now=IN_PERIOD_1) as ctx, ctx.work(Actor.system()) as w:
                notices.set_budget(w, event.id, 1)  # one message a day: already used
            other = TestClient(app)
            refused = other.post("/play/code", data=proved(other, {"csrf": _csrf(other, "/play/signin"), "phone": "13900004321"}))
            assert refused.status_code == REFUSED
            assert "今日短信发送量已达本赛事上限, 请于 2025-05-11 00:00 后再试" in refused.text
            assert len(p.accepted) == 1

            with open_context(db, now=IN_PERIOD_1) as ctx, ctx.work(Actor.system()) as w:
                notices.set_budget(w, event.id, None)
                notices.enqueue(w, FEE_DUE, "13900004321", {"event": "山海杯", "amount": "100"}, key="fee:test",
                                event_id=event.id)  # fmt: skip
            ops = TestClient(app)
            ops.post("/console/login", data={"login": "ops", "password": "operator-password",
                                             "csrf": _csrf(ops, "/console/login")})  # fmt: skip
            page = ops.get(f"/console/events/{event.id}/notices")
            assert page.status_code == 200 and "阿里云短信" in page.text
            # one pass of the worker (the app's loop, slowed down here, does the same): the fee
            # notice is refused by the provider (its template is not approved), said in words
            work_once(app.state.web.ctx, app.state.notice_sender)
            page = ops.get(f"/console/events/{event.id}/notices?show=failed")
            assert "模板未审核通过或模板编号错误" in page.text and "isv.SMS_TEMPLATE_ILLEGAL" in page.text
            assert "139****4321" in page.text and "13900004321" not in page.text
