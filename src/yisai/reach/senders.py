"""The SMS senders: each turns an ``Sms`` (kind + variables) into its provider's approved
template, calls the provider's official SDK and says a refusal in words for the operator.

The endpoint is a setting of each SDK (``HttpProfile.endpoint`` for Tencent Cloud,
``Config.endpoint`` for Alibaba Cloud), so the tests point the real SDKs at local servers that
check the signatures as the providers do. Alibaba Cloud is called with its RPC signature
(``signature_algorithm="v2"``: HMAC-SHA1 over the canonicalised query), the one documented for
Dysmsapi's SendSms.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field

from yisai.i18n import Text
from yisai.qualifier.notices import KINDS, SendFailed, Sms, signed
from yisai.qualifier.otp import OutboxSender

log = logging.getLogger("yisai.reach")


class OutboxSms:
    """The development default: nothing leaves the machine; the text goes to the developer
    outbox (``/play/dev/outbox``) and the log."""

    name = "outbox"

    def __init__(self, outbox: OutboxSender | None = None) -> None:
        self.outbox = outbox or OutboxSender()
        self.count = 0

    def deliver(self, sms: Sms) -> str:
        self.outbox.send(sms.phone, signed(sms.text).render("zh"))
        self.count += 1
        return f"outbox-{sms.notice_id}"


@dataclass(frozen=True)
class ProviderAccount:
    """What a provider needs besides the message: the key pair (secret: not in ``repr``), the
    approved signature (签名), one approved template id per notice kind, and where to call."""

    secret_id: str = field(repr=False)
    secret_key: str = field(repr=False)
    sign_name: str
    templates: dict[str, str]
    region: str = ""
    app_id: str = ""  # Tencent Cloud's SmsSdkAppId
    endpoint: str = ""  # host[:port]; empty: the provider's public endpoint
    scheme: str = "https"
    timeout: int = 10

    def template(self, sms: Sms) -> str:
        found = self.templates.get(sms.kind)
        if not found:
            label = KINDS[sms.kind].label
            raise SendFailed("no_template", Text(
                f"未配置“{label.zh}”({sms.kind})的短信模板编号, 请在短信配置的 [templates] 中填写服务商审核通过的模板",
                f"no template id for '{label.en}' ({sms.kind}): put the provider's approved template in [templates]"),
                retry=False)  # fmt: skip
        return found


def _words(table: dict[str, Text], code: str, message: str) -> Text:
    known = table.get(code)
    if known is not None:
        return Text(f"{known.zh} (服务商代码 {code})", f"{known.en} (provider code {code})")
    return Text(f"服务商拒绝: {code} {message}", f"the provider refused: {code} {message}")


# Tencent Cloud SMS error codes (SendSms API 3.0 "错误码") in the operator's words.
TENCENT_WORDS: dict[str, Text] = {
    "AuthFailure.SignatureFailure": Text("签名错误: SecretKey 与 SecretId 不匹配", "signature mismatch: the SecretKey does not belong to the SecretId"),
    "AuthFailure.SecretIdNotFound": Text("SecretId 不存在或已停用", "the SecretId does not exist or is disabled"),
    "AuthFailure.SignatureExpire": Text("请求时间与服务商相差超过5分钟, 请校准服务器时钟", "the request time is more than 5 minutes off: fix the server clock"),
    "FailedOperation.TemplateIncorrectOrUnapproved": Text("模板未审核通过或模板编号错误", "the template is not approved or its id is wrong"),
    "FailedOperation.SignatureIncorrectOrUnapproved": Text("短信签名未审核通过或填写错误", "the SMS signature is not approved or misspelt"),
    "FailedOperation.InsufficientBalanceInSmsPackage": Text("短信套餐包余量不足, 请充值", "the SMS package is used up: top it up"),
    "FailedOperation.PhoneNumberInBlacklist": Text("该号码已退订或在黑名单中", "the number unsubscribed or is blacklisted"),
    "InvalidParameterValue.IncorrectPhoneNumber": Text("手机号码格式错误", "the phone number is malformed"),
    "InvalidParameterValue.TemplateParameterFormatError": Text("模板变量格式不符 (如验证码须为数字)", "a template variable has the wrong format"),
    "InvalidParameterValue.TemplateParameterLengthLimit": Text("模板变量超过长度限制", "a template variable is too long"),
    "LimitExceeded.PhoneNumberDailyLimit": Text("该号码今天的短信已达服务商上限", "the provider's daily limit for this number is reached"),
    "LimitExceeded.PhoneNumberOneHourLimit": Text("该号码一小时内的短信已达服务商上限", "the provider's hourly limit for this number is reached"),
    "LimitExceeded.PhoneNumberThirtySecondLimit": Text("该号码30秒内已发过短信", "a message went to this number less than 30 s ago"),
    "UnauthorizedOperation.SmsSdkAppIdVerifyFail": Text("SmsSdkAppId 错误或不属于该账号", "the SmsSdkAppId is wrong or not this account's"),
    "InternalError.Timeout": Text("服务商内部超时", "the provider timed out"),
    "ClientNetworkError": Text("无法连接短信服务商 (网络错误)", "cannot reach the SMS provider (network error)"),
}
TENCENT_RETRY = ("LimitExceeded.PhoneNumberOneHourLimit", "LimitExceeded.PhoneNumberThirtySecondLimit",
                 "InternalError", "ClientNetworkError", "RequestLimitExceeded")  # fmt: skip


class TencentCloudSms:
    """Tencent Cloud SMS (短信 SendSms, API 2021-01-11) through ``tencentcloud-sdk-python-sms``."""

    name = "tencent"

    def __init__(self, account: ProviderAccount) -> None:
        from tencentcloud.common import credential
        from tencentcloud.common.profile.client_profile import ClientProfile
        from tencentcloud.common.profile.http_profile import HttpProfile
        from tencentcloud.sms.v20210111 import sms_client

        self.account = account
        http = HttpProfile(protocol=account.scheme, endpoint=account.endpoint or None, reqTimeout=account.timeout)
        self.client = sms_client.SmsClient(credential.Credential(account.secret_id, account.secret_key),
                                           account.region or "ap-guangzhou", ClientProfile(httpProfile=http))

    def deliver(self, sms: Sms) -> str:
        from tencentcloud.common.exception.tencent_cloud_sdk_exception import (
            TencentCloudSDKException,
        )
        from tencentcloud.sms.v20210111 import models

        kind = KINDS[sms.kind]
        req = models.SendSmsRequest()
        req.PhoneNumberSet = [f"+86{sms.phone}"]
        req.SmsSdkAppId = self.account.app_id
        req.SignName = self.account.sign_name
        req.TemplateId = self.account.template(sms)
        req.TemplateParamSet = [str(sms.params[p]) for p in kind.params]
        req.SessionContext = str(sms.notice_id)
        try:
            resp = self.client.SendSms(req)
        except TencentCloudSDKException as exc:
            code = str(exc.code or "ClientNetworkError")
            raise SendFailed(code, _words(TENCENT_WORDS, code, str(exc.message or "")),
                             retry=code.startswith(TENCENT_RETRY)) from None
        status = (resp.SendStatusSet or [None])[0]
        if status is None:
            raise SendFailed("NoStatus", Text("服务商没有返回发送状态", "the provider returned no send status"), retry=True)
        if status.Code != "Ok":
            raise SendFailed(status.Code, _words(TENCENT_WORDS, status.Code, status.Message or ""),
                             retry=status.Code.startswith(TENCENT_RETRY))
        return str(status.SerialNo)


# Alibaba Cloud Dysmsapi error codes (SendSms "错误码") in the operator's words.
ALIYUN_WORDS: dict[str, Text] = {
    "SignatureDoesNotMatch": Text("签名错误: AccessKey Secret 不匹配", "signature mismatch: wrong AccessKey secret"),
    "InvalidAccessKeyId.NotFound": Text("AccessKey ID 不存在", "the AccessKey ID does not exist"),
    "InvalidTimeStamp.Expired": Text("请求时间与服务商相差过大, 请校准服务器时钟", "the request time is off: fix the server clock"),
    "isv.SMS_TEMPLATE_ILLEGAL": Text("模板未审核通过或模板编号错误", "the template is not approved or its code is wrong"),
    "isv.SMS_SIGNATURE_ILLEGAL": Text("短信签名未审核通过或填写错误", "the SMS signature is not approved or misspelt"),
    "isv.MOBILE_NUMBER_ILLEGAL": Text("手机号码格式错误", "the phone number is malformed"),
    "isv.AMOUNT_NOT_ENOUGH": Text("账户余额不足, 请充值", "the account balance is too low: top it up"),
    "isv.OUT_OF_SERVICE": Text("短信业务已停机 (欠费)", "the SMS service is suspended (arrears)"),
    "isv.TEMPLATE_MISSING_PARAMETERS": Text("模板变量缺失", "a template variable is missing"),
    "isv.INVALID_PARAMETERS": Text("参数格式错误", "a parameter is malformed"),
    "isv.BUSINESS_LIMIT_CONTROL": Text("该号码触发服务商的频率限制", "the provider's rate limit for this number is hit"),
    "isv.DAY_LIMIT_CONTROL": Text("该号码今天的短信已达服务商上限", "the provider's daily limit for this number is reached"),
    "isv.BLACK_KEY_CONTROL_LIMIT": Text("模板变量含有禁用词", "a template variable holds a forbidden word"),
    "isp.SYSTEM_ERROR": Text("服务商系统错误", "the provider's system error"),
    "ClientNetworkError": Text("无法连接短信服务商 (网络错误)", "cannot reach the SMS provider (network error)"),
}
ALIYUN_RETRY = ("isv.BUSINESS_LIMIT_CONTROL", "isp.", "Throttling", "ServiceUnavailable", "ClientNetworkError")


class AlibabaCloudSms:
    """Alibaba Cloud SMS (Dysmsapi 2017-05-25 SendSms) through ``alibabacloud_dysmsapi20170525``."""

    name = "aliyun"

    def __init__(self, account: ProviderAccount) -> None:
        from alibabacloud_dysmsapi20170525.client import Client
        from alibabacloud_tea_openapi.utils_models import Config

        self.account = account
        config = Config(access_key_id=account.secret_id, access_key_secret=account.secret_key,
                        endpoint=account.endpoint or "dysmsapi.aliyuncs.com", protocol=account.scheme,
                        region_id=account.region or "cn-hangzhou", signature_algorithm="v2",
                        read_timeout=account.timeout * 1000, connect_timeout=account.timeout * 1000)  # fmt: skip
        self.client = Client(config)

    def deliver(self, sms: Sms) -> str:
        from alibabacloud_dysmsapi20170525 import models

        kind = KINDS[sms.kind]
        params = {p: str(sms.params[p]) for p in kind.params}
        req = models.SendSmsRequest(phone_numbers=sms.phone, sign_name=self.account.sign_name,
                                    template_code=self.account.template(sms),
                                    template_param=json.dumps(params, ensure_ascii=False), out_id=str(sms.notice_id))
        try:
            body = self.client.send_sms(req).body
        except Exception as exc:  # the SDK raises its own exceptions and the HTTP library's
            code = str(getattr(exc, "code", "") or "ClientNetworkError")
            message = str(getattr(exc, "message", "") or exc)
            raise SendFailed(code, _words(ALIYUN_WORDS, code, message[:200]),
                             retry=code.startswith(ALIYUN_RETRY)) from None
        if body is None or body.code != "OK":
            code = body.code if body is not None else "NoBody"
            raise SendFailed(str(code), _words(ALIYUN_WORDS, str(code), str(getattr(body, "message", ""))),
                             retry=str(code).startswith(ALIYUN_RETRY))
        return str(body.biz_id)


__all__ = ["AlibabaCloudSms", "OutboxSms", "ProviderAccount", "TencentCloudSms"]
