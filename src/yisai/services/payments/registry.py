"""The providers configured for this process, read once at an entry point (``yisai serve``).

A provider is configured by environment variables naming its merchant id and the files that hold
its keys (docs/fees.md lists them); one whose settings are absent is simply not there, and the
pages offer only what is there (none: the manual 已缴费 path alone, as before). Secrets are read
from files or the environment into the provider object only: never stored, never logged, never
in a ``repr``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from yisai.i18n import Text
from yisai.services.errors import InputError, Refused
from yisai.services.oauth_providers import Provider as OAuthApp
from yisai.services.oauth_providers import wechat_mp_from_environment
from yisai.services.payments.base import Provider, ProviderError


@dataclass(frozen=True)
class Providers:
    """Name → provider, in the order the pages offer them."""

    by_name: dict[str, Provider] = field(default_factory=dict)
    wechat_mp: OAuthApp | None = None  # the 公众号's web authorisation (the payer's openid for JSAPI)

    def __bool__(self) -> bool:
        return bool(self.by_name)

    def __iter__(self) -> Iterator[Provider]:
        return iter(self.by_name.values())

    def get(self, name: str) -> Provider | None:
        return self.by_name.get(name)

    def named(self, name: str) -> Provider:
        """The provider ``name``, or refused when this process has none of that name."""
        found = self.by_name.get(name)
        if found is None:
            raise Refused(Text("该支付方式未开通", "this payment method is not configured"),
                          code="provider_not_configured", params={"provider": name})
        return found

    def __repr__(self) -> str:  # names and merchant ids only, never a key
        return "Providers(" + ", ".join(f"{p.name}:{p.merchant_id}" for p in self) + ")"


def providers_from_environment(env: Mapping[str, str]) -> Providers:
    """Every provider whose merchant id is set; a half-configured one stops the start with the
    setting to fix."""
    found: dict[str, Provider] = {}
    mp: OAuthApp | None = None
    if env.get("YISAI_WECHATPAY_MCHID", "").strip():
        # the SDK loads only when a merchant is configured
        from yisai.services.payments.wechat import wechat_from_environment

        try:
            found["wechat"] = wechat_from_environment(env)
        except ProviderError as exc:
            raise InputError(exc.text, code=exc.code) from None
        mp = wechat_mp_from_environment(env, env.get("YISAI_WECHATPAY_APPID", "").strip())
    if env.get("YISAI_ALIPAY_APP_ID", "").strip():
        from yisai.services.payments.alipay import alipay_from_environment

        try:
            found["alipay"] = alipay_from_environment(env)
        except ProviderError as exc:
            raise InputError(exc.text, code=exc.code) from None
    return Providers(found, wechat_mp=mp)
