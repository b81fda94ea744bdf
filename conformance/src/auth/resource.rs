//! A protected MCP server's side of authorization, as the reference peer
//! plays it (`wirecheck serve --http ADDR --auth`): every request's bearer
//! token validated against the authorization server's JWKS (signature,
//! `iss`, `aud` = the server's own URL, `exp`, the scope [`SCOPE`]); 401
//! with `WWW-Authenticate: Bearer resource_metadata=…` when it is missing or
//! invalid, 403 `insufficient_scope` when its scope falls short; the
//! Protected Resource Metadata (RFC 9728) at both well-known URIs.
//!
//! A hidden `--auth-defect NAME` makes it wrong in exactly one way
//! ([`Defect`]), for the tests that prove each authorization rule catches
//! its own defect and nothing else.

use std::collections::BTreeMap;

use jsonwebtoken::jwk::JwkSet;
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde_json::{json, Value};

use super::issuer::{now, SCOPE};

/// One way a protected server can be wrong, planted on purpose.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Defect {
    /// Accepts a token whose `aud` names another resource.
    WrongAudience,
    /// Accepts a token without `aud`.
    MissingAudience,
    /// Accepts an expired token.
    Expired,
    /// Accepts a token signed with a key the issuer never published.
    UnpublishedKey,
    /// Accepts a token another issuer issued.
    OtherIssuer,
    /// Answers 401 without `WWW-Authenticate`.
    NoChallenge,
    /// Answers 401 with a `Bearer` challenge naming no `scope`.
    NoChallengeScope,
    /// Serves Protected Resource Metadata without `authorization_servers`.
    NoAuthorizationServers,
    /// Serves Protected Resource Metadata whose `resource` is not its URL.
    WrongResource,
    /// Answers 403 for an insufficient scope without `insufficient_scope`
    /// (its `scope` kept, so only that rule sees it).
    NoInsufficientScope,
    /// Answers 403 `insufficient_scope` naming no `scope`.
    NoInsufficientScopeScope,
    /// Names `offline_access` in its Protected Resource Metadata's
    /// `scopes_supported`, which 2026-07-28 says a server should not.
    OfflineAccessScope,
    /// Requires [`SECOND_SCOPE`] beside [`SCOPE`] (both in its
    /// `scopes_supported`) but its 403 names [`SCOPE`] only: a client
    /// granted what the challenge named is refused again.
    PartialScopeChallenge,
    /// Answers a bad token with 401 and a `Bearer` challenge naming no
    /// `error`.
    NoInvalidTokenError,
    /// Answers a request without any token with 401 and a `Bearer`
    /// challenge naming `error="invalid_token"`, as if a token had failed.
    ErrorWithoutToken,
    /// Serves no Authorization Server Metadata (2025-03-26's discovery),
    /// its default endpoints kept.
    NoAsMetadata,
    /// Serves its Authorization Server Metadata at RFC 8414's path-inserted
    /// URI only, not at the authorization base URL.
    AsMetadataAtPath,
    /// Serves Authorization Server Metadata without `token_endpoint`.
    AsMetadataNoTokenEndpoint,
    /// Serves no Authorization Server Metadata and no default `/token`
    /// (judged against [`Defect::NoAsMetadata`]'s peer, whose warning it
    /// shares).
    NoDefaultToken,
    /// Offers no Dynamic Client Registration: no `registration_endpoint`,
    /// no `/register`.
    NoRegistration,
}

/// The scope [`Defect::PartialScopeChallenge`] also requires and never
/// names in a challenge.
pub const SECOND_SCOPE: &str = "wirecheck:second";

/// Why the protected server denies a request (a 401 or a 403; not a codec
/// refusal, which is harness::Refusal).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Denial {
    /// 401: no token (`None`), or an invalid one (why).
    Unauthorized(Option<String>),
    /// 403: a valid token without the scope a request needs.
    InsufficientScope,
}

/// What the protected server checks tokens against.
pub struct Protection {
    /// The issuer it trusts.
    pub issuer: String,
    /// Its own canonical URI, the audience its tokens must name.
    pub audience: String,
    /// The URL of its Protected Resource Metadata (path form).
    pub metadata_url: String,
    /// The issuer's published keys.
    pub keys: JwkSet,
    /// The one planted defect, if any.
    pub defect: Option<Defect>,
    /// Judging the client (`serve --http --judge --auth`): what it adds.
    pub judging: Option<Judging>,
}

/// What the protected peer does beside checking tokens when it judges the
/// client's authorization (`crate::clientcheck::auth`).
#[derive(Debug, Clone)]
pub struct Judging {
    /// Where every request and its answer is recorded.
    pub log: super::observed::Log,
    /// The scopes its 401 names: a superset of `scopes_supported`, so a
    /// client that takes them from the metadata instead is seen.
    pub challenge_scopes: String,
    /// The scope `tools/call` needs beside [`SCOPE`]: its 403 asks for it,
    /// so the client's step-up is on the wire.
    pub step_up: String,
}

/// The RFC 9728 well-known prefix.
pub const PRM_PREFIX: &str = "/.well-known/oauth-protected-resource";

/// The RFC 8414 §3 well-known suffix of Authorization Server Metadata.
pub const AS_METADATA: &str = "/.well-known/oauth-authorization-server";

impl Protection {
    /// Checks an `Authorization` header value.
    pub fn check(&self, authorization: Option<&str>) -> Result<(), Denial> {
        let token = authorization
            .and_then(|v| {
                let (scheme, token) = v.trim().split_once(' ')?;
                scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
            })
            .filter(|t| !t.is_empty())
            .ok_or(Denial::Unauthorized(None))?;
        let invalid = |why: &str| Denial::Unauthorized(Some(why.to_owned()));
        let claims = match self.verified(token) {
            Ok(claims) => claims,
            Err(_) if self.defect == Some(Defect::UnpublishedKey) => {
                jsonwebtoken::dangerous::insecure_decode::<Value>(token)
                    .map_err(|_| invalid("the token is no JWT"))?
                    .claims
            }
            Err(why) => return Err(invalid(&why)),
        };
        let exp = claims.get("exp").and_then(Value::as_i64);
        if exp.is_none_or(|exp| exp <= now()) && self.defect != Some(Defect::Expired) {
            return Err(invalid("the token has expired"));
        }
        if claims.get("iss").and_then(Value::as_str) != Some(self.issuer.as_str())
            && self.defect != Some(Defect::OtherIssuer)
        {
            return Err(invalid("the token is not from the trusted issuer"));
        }
        let audiences: Vec<&str> = match claims.get("aud") {
            Some(Value::String(one)) => vec![one.as_str()],
            Some(Value::Array(many)) => many.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        if audiences.is_empty() {
            if self.defect != Some(Defect::MissingAudience) {
                return Err(invalid("the token names no audience"));
            }
        } else if !audiences.iter().any(|a| same_resource(a, &self.audience))
            && self.defect != Some(Defect::WrongAudience)
        {
            return Err(invalid("the token was issued for another resource"));
        }
        let holds = |wanted: &str| {
            claims
                .get("scope")
                .and_then(Value::as_str)
                .is_some_and(|s| s.split(' ').any(|s| s == wanted))
        };
        let scoped = holds(SCOPE)
            && (self.defect != Some(Defect::PartialScopeChallenge) || holds(SECOND_SCOPE));
        if !scoped {
            return Err(Denial::InsufficientScope);
        }
        Ok(())
    }

    /// The claims of a token whose signature one of the published keys
    /// verifies (by its `kid`), claims unchecked.
    fn verified(&self, token: &str) -> Result<Value, String> {
        let header = jsonwebtoken::decode_header(token).map_err(|e| format!("not a JWT: {e}"))?;
        let jwk = header
            .kid
            .as_deref()
            .and_then(|kid| self.keys.find(kid))
            .ok_or("no published key has the token's kid")?;
        let key = DecodingKey::from_jwk(jwk).map_err(|e| e.to_string())?;
        let mut validation = Validation::new(Algorithm::ES256);
        validation.required_spec_claims.clear();
        validation.validate_exp = false;
        validation.validate_aud = false;
        jsonwebtoken::decode::<Value>(token, &key, &validation)
            .map(|data| data.claims)
            .map_err(|e| format!("the signature does not verify: {e}"))
    }

    /// The `WWW-Authenticate` value of a denial, or none (the defect).
    #[must_use]
    pub fn challenge(&self, denial: &Denial) -> Option<String> {
        let md = &self.metadata_url;
        match denial {
            Denial::Unauthorized(_) if self.defect == Some(Defect::NoChallenge) => None,
            Denial::Unauthorized(None) if self.defect == Some(Defect::NoChallengeScope) => {
                Some(format!("Bearer resource_metadata=\"{md}\""))
            }
            Denial::Unauthorized(Some(why)) if self.defect == Some(Defect::NoChallengeScope) => {
                Some(format!(
                    "Bearer error=\"invalid_token\", error_description=\"{why}\", resource_metadata=\"{md}\""
                ))
            }
            Denial::Unauthorized(Some(_)) if self.defect == Some(Defect::NoInvalidTokenError) => {
                Some(format!(
                    "Bearer resource_metadata=\"{md}\", scope=\"{}\"",
                    self.challenge_scopes()
                ))
            }
            Denial::Unauthorized(None) if self.defect == Some(Defect::ErrorWithoutToken) => {
                Some(format!(
                    "Bearer error=\"invalid_token\", resource_metadata=\"{md}\", scope=\"{}\"",
                    self.challenge_scopes()
                ))
            }
            Denial::Unauthorized(None) => Some(format!(
                "Bearer resource_metadata=\"{md}\", scope=\"{}\"",
                self.challenge_scopes()
            )),
            Denial::Unauthorized(Some(why)) => Some(format!(
                "Bearer error=\"invalid_token\", error_description=\"{why}\", resource_metadata=\"{md}\", scope=\"{}\"",
                self.challenge_scopes()
            )),
            Denial::InsufficientScope if self.defect == Some(Defect::NoInsufficientScope) => {
                Some(format!(
                    "Bearer scope=\"{SCOPE}\", resource_metadata=\"{md}\""
                ))
            }
            Denial::InsufficientScope if self.defect == Some(Defect::NoInsufficientScopeScope) => {
                Some(format!(
                    "Bearer error=\"insufficient_scope\", resource_metadata=\"{md}\""
                ))
            }
            Denial::InsufficientScope => Some(format!(
                "Bearer error=\"insufficient_scope\", scope=\"{SCOPE}\", resource_metadata=\"{md}\", error_description=\"the token lacks the scope {SCOPE}\""
            )),
        }
    }

    /// The scopes a 401 names.
    fn challenge_scopes(&self) -> &str {
        self.judging
            .as_ref()
            .map_or(SCOPE, |j| j.challenge_scopes.as_str())
    }

    /// When judging: the challenge of a 403 refusing `tools/call` to a valid
    /// token without the step-up scope, or `None` when the token has it.
    #[must_use]
    pub fn step_up_challenge(&self, authorization: Option<&str>) -> Option<String> {
        let judging = self.judging.as_ref()?;
        let token = authorization?.trim().split_once(' ')?.1.trim();
        let claims = jsonwebtoken::dangerous::insecure_decode::<Value>(token)
            .ok()?
            .claims;
        let held = claims
            .get("scope")
            .and_then(Value::as_str)
            .is_some_and(|s| s.split(' ').any(|s| s == judging.step_up));
        (!held).then(|| {
            format!(
                "Bearer error=\"insufficient_scope\", scope=\"{SCOPE} {}\", resource_metadata=\"{}\", error_description=\"tools/call needs the scope {}\"",
                judging.step_up, self.metadata_url, judging.step_up
            )
        })
    }

    /// The Protected Resource Metadata document.
    #[must_use]
    pub fn metadata(&self) -> Value {
        let resource = if self.defect == Some(Defect::WrongResource) {
            format!("{}/not-this-server", self.audience)
        } else {
            self.audience.clone()
        };
        let scopes = match self.defect {
            Some(Defect::OfflineAccessScope) => json!([SCOPE, "offline_access"]),
            Some(Defect::PartialScopeChallenge) => json!([SCOPE, SECOND_SCOPE]),
            _ => json!([SCOPE]),
        };
        let mut document = json!({
            "resource": resource,
            "scopes_supported": scopes,
            "bearer_methods_supported": ["header"],
        });
        if self.defect != Some(Defect::NoAuthorizationServers) {
            document["authorization_servers"] = json!([self.issuer]);
        }
        document
    }
}

/// The 2025-03-26 server as its own authorization server (basic/authorization
/// §Server Metadata Discovery): where its RFC 8414 metadata is served (the
/// authorization base URL's well-known URI, or none), and what it serves
/// at the default paths.
impl Protection {
    /// The authorization base URL: the server's URL without its path.
    #[must_use]
    pub fn base_url(&self) -> String {
        origin(&self.audience).unwrap_or_default()
    }

    /// The path its Authorization Server Metadata is served at, or `None`.
    #[must_use]
    pub fn as_metadata_path(&self) -> Option<String> {
        let suffix = AS_METADATA;
        match self.defect {
            Some(Defect::NoAsMetadata | Defect::NoDefaultToken) => None,
            Some(Defect::AsMetadataAtPath) => {
                let path = self
                    .audience
                    .strip_prefix(&self.base_url())
                    .unwrap_or_default();
                Some(format!("{suffix}{}", path.trim_end_matches('/')))
            }
            _ => Some(suffix.to_owned()),
        }
    }

    /// Whether it serves the default token endpoint.
    #[must_use]
    pub fn serves_token(&self) -> bool {
        self.defect != Some(Defect::NoDefaultToken)
    }

    /// Whether it serves Dynamic Client Registration at `/register`.
    #[must_use]
    pub fn serves_registration(&self) -> bool {
        self.defect != Some(Defect::NoRegistration)
    }

    /// Its RFC 8414 metadata: itself the issuer (the base URL, or under
    /// [`Defect::AsMetadataAtPath`] the identifier that URI was made from,
    /// RFC 8414 §3.3), its endpoints at the default paths. The tokens come
    /// from the authorization server it trusts, whose flow its
    /// `/authorize` and `/token` pass on.
    #[must_use]
    pub fn as_metadata(&self) -> Value {
        let base = self.base_url();
        let issuer = if self.defect == Some(Defect::AsMetadataAtPath) {
            self.audience.trim_end_matches('/').to_owned()
        } else {
            base.clone()
        };
        let mut document = json!({
            "issuer": issuer,
            "authorization_endpoint": format!("{base}/authorize"),
            "token_endpoint": format!("{base}/token"),
            "response_types_supported": ["code"],
            "grant_types_supported": ["authorization_code"],
            "code_challenge_methods_supported": ["S256"],
            "token_endpoint_auth_methods_supported": ["none"],
            "scopes_supported": [SCOPE],
        });
        if self.serves_registration() {
            document["registration_endpoint"] = json!(format!("{base}/register"));
        }
        if self.defect == Some(Defect::AsMetadataNoTokenEndpoint) {
            if let Some(m) = document.as_object_mut() {
                m.remove("token_endpoint");
            }
        }
        document
    }
}

/// Whether two resource URIs name the same resource: the scheme and host
/// compared without case (2025-06-18 basic/authorization §Canonical Server
/// URI: "implementations SHOULD accept uppercase scheme and host
/// components"), a trailing slash ignored.
#[must_use]
pub fn same_resource(a: &str, b: &str) -> bool {
    canonical(a) == canonical(b)
}

/// `uri` with a lowercase scheme and host and no trailing slash or fragment.
#[must_use]
pub fn canonical(uri: &str) -> String {
    match reqwest::Url::parse(uri) {
        Ok(mut url) => {
            url.set_fragment(None);
            url.to_string().trim_end_matches('/').to_owned()
        }
        Err(_) => uri.trim_end_matches('/').to_owned(),
    }
}

/// The parameters of the `Bearer` challenge in a `WWW-Authenticate` value
/// (RFC 9110 §11.6.1 auth-params: `name=token` or `name="quoted"`), names
/// lowercase; `None` when no `Bearer` challenge is there.
#[must_use]
pub fn bearer_params(value: &str) -> Option<BTreeMap<String, String>> {
    let lower = value.to_ascii_lowercase();
    let start = lower.match_indices("bearer").find_map(|(i, _)| {
        let before = lower[..i].trim_end();
        let after = lower[i + 6..].chars().next();
        let at_boundary = before.is_empty() || before.ends_with(',');
        (at_boundary && after.is_none_or(|c| c == ' ')).then_some(i + 6)
    })?;
    let mut params = BTreeMap::new();
    let mut rest = value[start..].trim_start();
    loop {
        rest = rest.trim_start_matches([' ', ',']);
        let Some(eq) = rest.find('=') else { break };
        let name = rest[..eq].trim();
        if name.is_empty() || name.contains(' ') {
            // The next challenge's scheme: this one ends.
            break;
        }
        rest = rest[eq + 1..].trim_start();
        let value = if let Some(quoted) = rest.strip_prefix('"') {
            let mut text = String::new();
            let mut chars = quoted.char_indices();
            let mut end = quoted.len();
            while let Some((i, c)) = chars.next() {
                match c {
                    '\\' => {
                        if let Some((_, next)) = chars.next() {
                            text.push(next);
                        }
                    }
                    '"' => {
                        end = i + 1;
                        break;
                    }
                    c => text.push(c),
                }
            }
            rest = &quoted[end.min(quoted.len())..];
            text
        } else {
            let end = rest.find(',').unwrap_or(rest.len());
            let token = rest[..end].trim().to_owned();
            rest = &rest[end..];
            token
        };
        params.insert(name.to_ascii_lowercase(), value);
    }
    Some(params)
}

/// The origin of `url` (`http://host:port`), the resource a root-level
/// metadata document describes.
#[must_use]
pub fn origin(url: &str) -> Option<String> {
    reqwest::Url::parse(url)
        .ok()
        .map(|u| u.origin().ascii_serialization())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auth::issuer::{Issuer, Mint, Signer};

    fn protection(issuer: &Issuer, defect: Option<Defect>) -> Protection {
        Protection {
            issuer: issuer.url().to_owned(),
            audience: "http://127.0.0.1:2/mcp".into(),
            metadata_url: "http://127.0.0.1:2/.well-known/oauth-protected-resource/mcp".into(),
            keys: serde_json::from_value(issuer.jwks()).unwrap(),
            defect,
            judging: None,
        }
    }

    fn good() -> Mint {
        Mint {
            aud: Some("http://127.0.0.1:2/mcp".into()),
            scope: Some(SCOPE.into()),
            ..Mint::default()
        }
    }

    #[test]
    fn each_bad_token_is_refused_and_each_defect_lets_its_own_through() {
        let issuer = Issuer::new("http://127.0.0.1:1").unwrap();
        let bad = [
            (
                Defect::WrongAudience,
                Mint {
                    aud: Some("https://elsewhere.invalid/mcp".into()),
                    ..good()
                },
            ),
            (
                Defect::MissingAudience,
                Mint {
                    aud: None,
                    ..good()
                },
            ),
            (
                Defect::Expired,
                Mint {
                    expires_in: Some(-3600),
                    ..good()
                },
            ),
            (
                Defect::UnpublishedKey,
                Mint {
                    key: Signer::Unpublished,
                    ..good()
                },
            ),
            (
                Defect::OtherIssuer,
                Mint {
                    iss: Some("https://other.invalid".into()),
                    ..good()
                },
            ),
        ];
        let sound = protection(&issuer, None);
        let token = |m: &Mint| format!("Bearer {}", issuer.mint(m).unwrap());
        assert_eq!(sound.check(Some(&token(&good()))), Ok(()));
        assert_eq!(sound.check(None), Err(Denial::Unauthorized(None)));
        assert_eq!(
            sound.check(Some(&token(&Mint {
                scope: None,
                ..good()
            }))),
            Err(Denial::InsufficientScope)
        );
        for (defect, mint) in &bad {
            assert!(
                matches!(
                    sound.check(Some(&token(mint))),
                    Err(Denial::Unauthorized(Some(_)))
                ),
                "{defect:?}"
            );
            assert_eq!(
                protection(&issuer, Some(*defect)).check(Some(&token(mint))),
                Ok(()),
                "{defect:?}"
            );
            for (other, mint) in &bad {
                if other != defect {
                    assert!(protection(&issuer, Some(*defect))
                        .check(Some(&token(mint)))
                        .is_err());
                }
            }
        }
    }

    #[test]
    fn bearer_params_reads_quoted_and_token_values() {
        let p = bearer_params(
            r#"Bearer error="insufficient_scope", scope="a b", resource_metadata="http://h/x", realm=r"#,
        )
        .unwrap();
        assert_eq!(p["error"], "insufficient_scope");
        assert_eq!(p["scope"], "a b");
        assert_eq!(p["resource_metadata"], "http://h/x");
        assert_eq!(p["realm"], "r");
        assert!(bearer_params("Basic realm=\"x\"").is_none());
        assert_eq!(
            bearer_params(r#"Basic realm="x", Bearer scope="s""#).unwrap()["scope"],
            "s"
        );
        assert!(bearer_params("Bearer").unwrap().is_empty());
    }

    #[test]
    fn resources_compare_without_case_in_scheme_and_host() {
        assert!(same_resource(
            "HTTP://127.0.0.1:2/mcp",
            "http://127.0.0.1:2/mcp/"
        ));
        assert!(!same_resource(
            "http://127.0.0.1:2/mcp",
            "http://127.0.0.1:2/other"
        ));
    }
}
