"""X.509 certificates made at test time with ``cryptography`` for the local payment servers: a
self-signed CA and the certificates it issues (WeChat Pay's platform certificates, Alipay's app
and public-key certificates). Nothing here is ever written to the repository."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.x509.oid import NameOID

PrivateKey = rsa.RSAPrivateKey | ec.EllipticCurvePrivateKey
ATTRIBUTES = {"C": NameOID.COUNTRY_NAME, "ST": NameOID.STATE_OR_PROVINCE_NAME, "L": NameOID.LOCALITY_NAME,
              "O": NameOID.ORGANIZATION_NAME, "OU": NameOID.ORGANIZATIONAL_UNIT_NAME, "CN": NameOID.COMMON_NAME}


def name(dn: str) -> x509.Name:
    """``"C=CN,O=Ant Financial,CN=…"`` (most significant first, as a certificate stores it)."""
    return x509.Name([x509.NameAttribute(ATTRIBUTES[k], v) for k, v in (p.split("=", 1) for p in dn.split(","))])


def rsa_key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


@dataclass
class Issued:
    key: PrivateKey
    cert: x509.Certificate

    @property
    def pem(self) -> str:
        return self.cert.public_bytes(serialization.Encoding.PEM).decode()


def issue(subject: str, key: PrivateKey, issuer: Issued | None = None, *, serial: int | None = None,
          ca: bool = False, days: int = 3650, ago: int = 1) -> Issued:
    """A certificate for ``key`` named ``subject``, signed by ``issuer`` (self-signed without one),
    valid from ``ago`` days ago to ``days`` days from now (the SDKs compare with the real clock)."""
    now = datetime.now(UTC)
    signer = issuer.key if issuer else key
    builder = (x509.CertificateBuilder().subject_name(name(subject))
               .issuer_name(issuer.cert.subject if issuer else name(subject))
               .public_key(key.public_key()).serial_number(serial or x509.random_serial_number())
               .not_valid_before(now - timedelta(days=ago)).not_valid_after(now + timedelta(days=days))
               .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True))
    return Issued(key, builder.sign(signer, hashes.SHA256()))
