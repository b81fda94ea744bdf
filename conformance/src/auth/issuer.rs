//! The local authorization server's keys and tokens, without I/O: an ES256
//! key it publishes in its JWKS, one it never publishes (a forger's, under
//! the published key's `kid`), and JWT access tokens with whatever `aud`,
//! `exp`, `iss` and `scope` a probe needs.

use std::time::{SystemTime, UNIX_EPOCH};

use jsonwebtoken::jwk::{Jwk, PublicKeyUse};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use p256::pkcs8::EncodePrivateKey as _;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// The scope the reference peer requires of every request, and the one
/// wirecheck's authorization server grants by default.
pub const SCOPE: &str = "mcp";

/// Where the authorization server mints any token on request: wirecheck's
/// own extension of its RFC 8414 metadata (`wirecheck_mint_endpoint`), for
/// the runner's probes. A test server's door: it mints anything for anyone.
pub const MINT_PATH: &str = "/wirecheck/mint";

/// One ES256 signing key and its public JWK.
pub struct Key {
    encoding: EncodingKey,
    jwk: Jwk,
    kid: String,
}

impl Key {
    /// A fresh P-256 key from the OS random source, named `kid`.
    pub fn generate(kid: &str) -> Result<Key, String> {
        let secret = loop {
            let mut bytes = [0u8; 32];
            getrandom::fill(&mut bytes).map_err(|e| format!("the OS random source: {e}"))?;
            // A scalar out of range is astronomically rare: draw again.
            if let Ok(secret) = p256::SecretKey::from_slice(&bytes) {
                break secret;
            }
        };
        let der = secret
            .to_pkcs8_der()
            .map_err(|e| format!("encoding a P-256 key: {e}"))?;
        let encoding = EncodingKey::from_ec_der(der.as_bytes());
        let mut jwk = Jwk::from_encoding_key(&encoding, Algorithm::ES256)
            .map_err(|e| format!("the key's JWK: {e}"))?;
        jwk.common.key_id = Some(kid.to_owned());
        jwk.common.public_key_use = Some(PublicKeyUse::Signature);
        Ok(Key {
            encoding,
            jwk,
            kid: kid.to_owned(),
        })
    }

    /// The public half, as a JWK.
    #[must_use]
    pub fn jwk(&self) -> &Jwk {
        &self.jwk
    }
}

/// Which key signs a token.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Signer {
    /// The key the JWKS publishes.
    #[default]
    Published,
    /// A key the issuer never published, under the published key's `kid`:
    /// only a server that checks the signature refuses it.
    Unpublished,
}

/// How long a minted token lives unless asked otherwise: longer than any run
/// (a whole matrix of runs with `--auth` takes minutes), so the run's valid
/// token never expires under it and turns every later session into a 401.
const VALID_FOR: i64 = 24 * 3600;

/// What a token says: each claim as a probe wants it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mint {
    /// `aud`; `None` leaves the claim out.
    #[serde(default)]
    pub aud: Option<String>,
    /// Seconds from now to `exp` (negative: already expired); default 3600.
    #[serde(default)]
    pub expires_in: Option<i64>,
    /// `iss`; `None` is the issuer's own URL.
    #[serde(default)]
    pub iss: Option<String>,
    /// `scope`, space-separated; `None` leaves the claim out.
    #[serde(default)]
    pub scope: Option<String>,
    /// Which key signs it.
    #[serde(default)]
    pub key: Signer,
}

/// Seconds since the Unix epoch.
#[must_use]
pub fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

/// An issuer: its URL (`http://127.0.0.1:PORT`), its published key, and the
/// key it keeps unpublished.
pub struct Issuer {
    url: String,
    published: Key,
    unpublished: Key,
}

impl Issuer {
    /// An issuer at `url` (no trailing slash) with fresh keys.
    pub fn new(url: &str) -> Result<Issuer, String> {
        let kid = format!("wirecheck-{}", &fresh_hex()[..8]);
        Ok(Issuer {
            url: url.trim_end_matches('/').to_owned(),
            published: Key::generate(&kid)?,
            unpublished: Key::generate(&kid)?,
        })
    }

    /// The issuer identifier.
    #[must_use]
    pub fn url(&self) -> &str {
        &self.url
    }

    /// A signed JWT access token saying what `mint` asks.
    pub fn mint(&self, mint: &Mint) -> Result<String, String> {
        let key = match mint.key {
            Signer::Published => &self.published,
            Signer::Unpublished => &self.unpublished,
        };
        let now = now();
        let mut claims = json!({
            "iss": mint.iss.clone().unwrap_or_else(|| self.url.clone()),
            "sub": "wirecheck",
            "client_id": "wirecheck",
            "iat": now,
            "exp": now.saturating_add(mint.expires_in.unwrap_or(VALID_FOR)),
            "jti": fresh_hex(),
        });
        if let Some(aud) = &mint.aud {
            claims["aud"] = json!(aud);
        }
        if let Some(scope) = &mint.scope {
            claims["scope"] = json!(scope);
        }
        let mut header = Header::new(Algorithm::ES256);
        header.kid = Some(key.kid.clone());
        header.typ = Some("at+jwt".into());
        jsonwebtoken::encode(&header, &claims, &key.encoding).map_err(|e| format!("signing: {e}"))
    }

    /// The JWKS: the published key only.
    #[must_use]
    pub fn jwks(&self) -> Value {
        json!({ "keys": [self.published.jwk()] })
    }

    /// The RFC 8414 metadata document.
    #[must_use]
    pub fn metadata(&self) -> Value {
        let url = &self.url;
        json!({
            "issuer": url,
            "authorization_endpoint": format!("{url}/authorize"),
            "token_endpoint": format!("{url}/token"),
            "jwks_uri": format!("{url}/jwks"),
            "response_types_supported": ["code"],
            "grant_types_supported": ["authorization_code"],
            "code_challenge_methods_supported": ["S256"],
            "token_endpoint_auth_methods_supported": ["none"],
            "scopes_supported": [SCOPE],
            "authorization_response_iss_parameter_supported": true,
            "wirecheck_mint_endpoint": format!("{url}{MINT_PATH}"),
        })
    }
}

/// 128 random bits as 32 lowercase hex digits.
#[must_use]
pub fn fresh_hex() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the OS random source is available");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_carries_the_claims_asked_and_verifies_only_with_the_published_key() {
        let issuer = Issuer::new("http://127.0.0.1:1").unwrap();
        let token = issuer
            .mint(&Mint {
                aud: Some("http://127.0.0.1:2/mcp".into()),
                scope: Some(SCOPE.into()),
                ..Mint::default()
            })
            .unwrap();
        let jwks: jsonwebtoken::jwk::JwkSet = serde_json::from_value(issuer.jwks()).unwrap();
        let header = jsonwebtoken::decode_header(&token).unwrap();
        let jwk = jwks.find(header.kid.as_deref().unwrap()).unwrap();
        let key = jsonwebtoken::DecodingKey::from_jwk(jwk).unwrap();
        let mut validation = jsonwebtoken::Validation::new(Algorithm::ES256);
        validation.set_audience(&["http://127.0.0.1:2/mcp"]);
        validation.set_issuer(&["http://127.0.0.1:1"]);
        let data = jsonwebtoken::decode::<Value>(&token, &key, &validation).unwrap();
        assert_eq!(data.claims["scope"], SCOPE);
        let forged = issuer
            .mint(&Mint {
                key: Signer::Unpublished,
                ..Mint::default()
            })
            .unwrap();
        assert_eq!(
            jsonwebtoken::decode_header(&forged).unwrap().kid,
            header.kid,
            "the forger names the published kid"
        );
        validation.validate_aud = false;
        assert!(jsonwebtoken::decode::<Value>(&forged, &key, &validation).is_err());
    }
}
