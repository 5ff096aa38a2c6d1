"""Alipay's 公钥证书模式 (public-key certificate mode) for the official SDK ``alipay-sdk-python``.

In this mode the app's public key is uploaded to the open platform as a certificate request and
Alipay issues three files: the app's public-key certificate (``appCertPublicKey_<APPID>.crt``),
Alipay's public-key certificate (``alipayCertPublicKey_RSA2.crt``) and Alipay's root chain
(``alipayRootCert.crt``). Every request carries two more parameters, signed with the rest:
``app_cert_sn`` (the SN of the app's certificate) and ``alipay_root_cert_sn`` (the SNs of the
root chain's RSA certificates joined by ``_``); every answer names the certificate that signed
it in ``alipay_cert_sn``, between the ``xxx_response`` object and ``sign``; answers and
notifications are verified with the public key in Alipay's certificate.

A certificate's SN, as Alipay's documents specify (and its Java SDK computes it): the MD5, in
hexadecimal, of the issuer's distinguished name as Java's ``X500Principal.getName()`` writes it
(RFC 2253: the most specific part first, ``CN=…,OU=…,O=…,C=CN``) followed by the serial number in
decimal. A file may hold a chain: the first certificate is the one meant.

The SDK (3.7) has no setting for this mode: its client configuration holds the app's private key
and Alipay's public key only, and its answer parser expects ``sign`` right after the response
object. So the SNs are added to each request through the SDK's own ``add_other_text_param``,
and each answer's ``alipay_cert_sn`` is compared with the configured certificate's and taken out
before the SDK verifies the ``sign`` (which covers the response object alone).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from typing import Any

from yisai.services.payments.config import config_error, secret_file

RSA_SIGNED = "1.2.840.113549.1.1."  # sha1WithRSA, sha256WithRSA, …: the root chain's certificates that count
CERT_SN = re.compile(r'\}(\s*,\s*"alipay_cert_sn"\s*:\s*"([^"]*)")')
CHANGED = "alipay_cert_sn differs"  # what the client raises when another certificate signed an answer


def cert_sn(cert: Any) -> str:
    """MD5 hex of the issuer's name (RFC 2253 order) and the serial number in decimal."""
    text = cert.issuer.rfc4514_string() + str(cert.serial_number)
    return hashlib.md5(text.encode("utf-8"), usedforsecurity=False).hexdigest()


def root_cert_sn(certs: list[Any]) -> str:
    """The root chain's SN: the SN of each certificate signed with RSA, joined by ``_``."""
    return "_".join(cert_sn(c) for c in certs if c.signature_algorithm_oid.dotted_string.startswith(RSA_SIGNED))


@dataclass(frozen=True)
class AlipayCerts:
    app_cert_sn: str
    root_cert_sn: str
    alipay_cert_sn: str
    alipay_public_key: str  # PEM: the key in Alipay's certificate, which verifies answers and notifications
    app_public_key: str  # PEM: the key in the app's certificate (must pair with the app's private key)

    def pairs_with(self, private_key_pem: str) -> bool:
        from cryptography.hazmat.primitives import serialization

        key = serialization.load_pem_private_key(private_key_pem.encode(), password=None)
        public = key.public_key().public_bytes(serialization.Encoding.PEM,
                                               serialization.PublicFormat.SubjectPublicKeyInfo).decode()
        return public == self.app_public_key


def _certificates(env: Mapping[str, str], var: str) -> list[Any]:
    from cryptography import x509

    try:
        found = x509.load_pem_x509_certificates(secret_file(env, var).encode())
    except ValueError:
        found = []
    if not found:
        raise config_error(var, "应为开放平台下载的证书文件 (.crt, PEM)", "must be the certificate file (.crt, PEM) from the open platform")
    return found


def _rsa_public(cert: Any, var: str, now: datetime) -> str:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    key = cert.public_key()
    if not isinstance(key, rsa.RSAPublicKey):
        raise config_error(var, "证书中的公钥应为 RSA (接口加签方式 RSA2)", "the certificate's key must be RSA (RSA2 signing)")
    if not cert.not_valid_before_utc <= now <= cert.not_valid_after_utc:
        until = cert.not_valid_after_utc.date().isoformat()
        raise config_error(var, f"证书不在有效期内 (有效期至 {until}), 请在开放平台更新后重新下载",
                           f"the certificate is not valid now (valid until {until}); renew and download it again")
    return key.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode()


def certs_from_environment(env: Mapping[str, str], prefix: str) -> AlipayCerts:
    """The three certificate files ``<prefix>APP_CERT_FILE``, ``PUBLIC_CERT_FILE`` and
    ``ROOT_CERT_FILE``; a missing, unreadable, expired or wrong one is named."""
    app_var, alipay_var, root_var = (prefix + k for k in ("APP_CERT_FILE", "PUBLIC_CERT_FILE", "ROOT_CERT_FILE"))
    now = datetime.now(UTC)
    app, alipay, roots = (_certificates(env, v) for v in (app_var, alipay_var, root_var))
    root_sn = root_cert_sn(roots)
    if not root_sn:
        raise config_error(root_var, "应为支付宝根证书 (alipayRootCert.crt), 其中没有 RSA 证书",
                           "must be Alipay's root certificate chain (alipayRootCert.crt): it holds no RSA certificate")
    return AlipayCerts(app_cert_sn=cert_sn(app[0]), root_cert_sn=root_sn, alipay_cert_sn=cert_sn(alipay[0]),
                       alipay_public_key=_rsa_public(alipay[0], alipay_var, now),
                       app_public_key=_rsa_public(app[0], app_var, now))


def _answer_checked(raw: bytes, certs: AlipayCerts) -> bytes:
    """An answer with its ``alipay_cert_sn`` compared with ours and taken out, as the SDK's parser
    (and its ``sign``, over the response object alone) expects it."""
    text = raw.decode("utf-8")
    found = list(CERT_SN.finditer(text))
    if not found:
        return raw
    last = found[-1]
    if last.group(2) != certs.alipay_cert_sn:
        from alipay.aop.api.exception.Exception import ResponseException

        raise ResponseException(CHANGED)
    return (text[:last.start(1)] + text[last.end(1):]).encode("utf-8")


@cache
def _client_class() -> Any:
    from alipay.aop.api.DefaultAlipayClient import DefaultAlipayClient

    class CertAlipayClient(DefaultAlipayClient):
        """The SDK's client with the two SNs on every request and ``alipay_cert_sn`` checked."""

        def __init__(self, config: Any, certs: AlipayCerts) -> None:
            super().__init__(config, logger=None)  # no logger: its lines hold signed URLs
            self._certs = certs

        def _with_sns(self, request: Any) -> Any:
            request.add_other_text_param("app_cert_sn", self._certs.app_cert_sn)
            request.add_other_text_param("alipay_root_cert_sn", self._certs.root_cert_sn)
            return request

        def execute(self, request: Any) -> Any:
            return super().execute(self._with_sns(request))

        def page_execute(self, request: Any, http_method: str = "POST") -> Any:
            return super().page_execute(self._with_sns(request), http_method=http_method)

        def _DefaultAlipayClient__parse_response(self, response_str: bytes) -> Any:  # the SDK's private parser
            return DefaultAlipayClient._DefaultAlipayClient__parse_response(
                self, _answer_checked(response_str, self._certs))

    return CertAlipayClient


def cert_client(config: Any, certs: AlipayCerts) -> Any:
    """The SDK's ``DefaultAlipayClient`` for the certificate mode."""
    return _client_class()(config, certs)
