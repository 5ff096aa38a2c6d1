"""The real SDKs (tencentcloud-sdk-python-sms, alibabacloud_dysmsapi20170525) against local
servers that verify the providers' signatures as documented (tests/reach/providers.py)."""

from __future__ import annotations

import json
import socket

import pytest

from tests.reach.providers import Provider, rpc_signature, serve, tc3_signature
from yisai.qualifier.notices import SIGN_IN_CODE, SendFailed, Sms
from yisai.reach.senders import AlibabaCloudSms, ProviderAccount, TencentCloudSms

SID, KEY = "AKIDtestid0000000000", "test-secret-key-000000"
CODE = Sms(41, "13800138000", SIGN_IN_CODE, {"code": "123456", "minutes": "5"})


def test_the_local_servers_sign_as_the_providers_documentation_shows() -> None:
    """The two signing functions reproduce the worked examples of the providers' documentation
    (Tencent Cloud's TC3 example for CVM DescribeInstances, Alibaba Cloud's RPC example for
    ECS DescribeRegions with the secret ``testsecret``)."""
    body = b'{"Limit": 1, "Filters": [{"Values": ["\\u672a\\u547d\\u540d"], "Name": "instance-name"}]}'
    headers = {"content-type": "application/json; charset=utf-8", "host": "cvm.tencentcloudapi.com"}
    assert tc3_signature("Gu5t9xGARNpq86cd98joQYCN3EXAMPLE", "POST", "/", "", headers, ["content-type", "host"],
                         body, 1551113065, "cvm") == "72e494ea809ad7a8c8f7a4507b9bddcbaa8e581f516e8da2f66e2c5a96525168"
    params = {"Action": "DescribeRegions", "Format": "XML", "SignatureMethod": "HMAC-SHA1",
              "SignatureNonce": "3ee8c1b8-83d3-44af-a94f-4e0ad82fd6cf", "SignatureVersion": "1.0",
              "Timestamp": "2016-02-23T12:46:24Z", "Version": "2014-05-26", "AccessKeyId": "testid"}
    assert rpc_signature("testsecret", "GET", params) == "OLeaidS1JvxuMvnyHOwuJ+uX5qY="


def _account(p: Provider, *, key: str = KEY, templates: dict[str, str] | None = None) -> ProviderAccount:
    return ProviderAccount(secret_id=SID, secret_key=key, sign_name="弈赛", app_id=p.app_id,
                           templates={SIGN_IN_CODE: "1001"} if templates is None else templates,
                           endpoint=p.endpoint, scheme="http", timeout=5)  # fmt: skip


def _tencent() -> Provider:
    return Provider(SID, KEY, "弈赛", {"1001"}, app_id="1400000001")


def test_tencent_cloud_sends_a_sign_in_code_through_the_sdk() -> None:
    with serve("tencent", _tencent()) as p:
        serial = TencentCloudSms(_account(p)).deliver(CODE)
    assert serial.startswith("2028:")
    [got] = p.accepted
    assert got["PhoneNumber"] == "+8613800138000"
    assert got["TemplateId"] == "1001" and got["SignName"] == "弈赛" and got["SmsSdkAppId"] == "1400000001"
    assert got["TemplateParamSet"] == ["123456", "5"]  # {1} the code, {2} the minutes
    assert got["SessionContext"] == "41"


def test_tencent_cloud_wrong_key_is_refused_by_the_signature_check_and_said_in_words() -> None:
    with serve("tencent", _tencent()) as p, pytest.raises(SendFailed) as failed:
        TencentCloudSms(_account(p, key="not-the-key")).deliver(CODE)
    assert failed.value.code == "AuthFailure.SignatureFailure" and not failed.value.retry
    assert "签名错误" in failed.value.reason.zh and p.accepted == [] and p.refused == ["AuthFailure.SignatureFailure"]


def test_tencent_cloud_unapproved_template_and_throttling() -> None:
    with serve("tencent", _tencent()) as p:
        with pytest.raises(SendFailed) as failed:
            TencentCloudSms(_account(p, templates={SIGN_IN_CODE: "9999"})).deliver(CODE)
        assert failed.value.code == "FailedOperation.TemplateIncorrectOrUnapproved" and not failed.value.retry
        assert "模板未审核通过" in failed.value.reason.zh
        p.fail_next.append("LimitExceeded.PhoneNumberThirtySecondLimit")
        with pytest.raises(SendFailed) as throttled:
            TencentCloudSms(_account(p)).deliver(CODE)
        assert throttled.value.retry


def _aliyun() -> Provider:
    return Provider(SID, KEY, "弈赛", {"SMS_1001"})


def test_alibaba_cloud_sends_a_sign_in_code_through_the_sdk() -> None:
    with serve("aliyun", _aliyun()) as p:
        biz = AlibabaCloudSms(_account(p, templates={SIGN_IN_CODE: "SMS_1001"})).deliver(CODE)
    assert biz.endswith("^0")
    [got] = p.accepted
    assert got["PhoneNumbers"] == "13800138000" and got["SignName"] == "弈赛" and got["TemplateCode"] == "SMS_1001"
    assert json.loads(got["TemplateParam"]) == {"code": "123456", "minutes": "5"}
    assert got["OutId"] == "41" and got["SignatureMethod"] == "HMAC-SHA1"


def test_alibaba_cloud_wrong_secret_is_refused_by_the_signature_check_and_said_in_words() -> None:
    with serve("aliyun", _aliyun()) as p, pytest.raises(SendFailed) as failed:
        AlibabaCloudSms(_account(p, key="wrong", templates={SIGN_IN_CODE: "SMS_1001"})).deliver(CODE)
    assert failed.value.code == "SignatureDoesNotMatch" and not failed.value.retry
    assert "签名错误" in failed.value.reason.zh and p.accepted == []


def test_alibaba_cloud_business_refusals() -> None:
    with serve("aliyun", _aliyun()) as p:
        with pytest.raises(SendFailed) as failed:
            AlibabaCloudSms(_account(p, templates={SIGN_IN_CODE: "SMS_9"})).deliver(CODE)
        assert failed.value.code == "isv.SMS_TEMPLATE_ILLEGAL" and not failed.value.retry
        p.fail_next.append("isv.BUSINESS_LIMIT_CONTROL")
        with pytest.raises(SendFailed) as limited:
            AlibabaCloudSms(_account(p, templates={SIGN_IN_CODE: "SMS_1001"})).deliver(CODE)
        assert limited.value.retry and "频率限制" in limited.value.reason.zh


def test_a_kind_without_a_template_and_an_unreachable_provider() -> None:
    with serve("tencent", _tencent()) as p, pytest.raises(SendFailed) as missing:
        TencentCloudSms(_account(p, templates={})).deliver(CODE)
    assert missing.value.code == "no_template" and "[templates]" in missing.value.reason.zh
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        closed = s.getsockname()[1]
    gone = Provider(SID, KEY, "弈赛", {"1001"}, app_id="1400000001", port=closed)
    for sender in (TencentCloudSms(_account(gone)), AlibabaCloudSms(_account(gone))):
        with pytest.raises(SendFailed) as down:
            sender.deliver(CODE)
        assert down.value.retry, down.value.code
