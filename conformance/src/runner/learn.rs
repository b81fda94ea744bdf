//! What the peer offers, learnt once per revision before the vectors are
//! played: its capabilities and its tools, prompts and resources.

use harness::Raw;
use serde_json::Value;

use super::fixtures::Catalogue;
use super::{Config, Wire};
use crate::driver::{Driver, Handshake};

/// The most pages of one list the runner reads.
pub(super) const MAX_PAGES: usize = 16;

/// What the peer offers: its capabilities, then its tools, prompts and
/// resources, each list read only when its capability is declared.
pub(super) async fn learn(
    driver: &mut Driver<Wire>,
    handshake: Option<&Handshake>,
    config: &Config,
) -> Catalogue {
    let Some(handshake) = handshake else {
        return Catalogue::default();
    };
    let mut catalogue = Catalogue::from_handshake(&handshake.result);
    for (capability, method, member, key) in [
        ("tools", "tools/list", "tools", "name"),
        ("prompts", "prompts/list", "prompts", "name"),
        ("resources", "resources/list", "resources", "uri"),
    ] {
        if !catalogue.declares(capability) {
            continue;
        }
        let mut cursor: Option<String> = None;
        for _ in 0..MAX_PAGES {
            let params = cursor
                .as_ref()
                .map(|c| Raw::from_value(&serde_json::json!({ "cursor": c })));
            let Ok(answered) = driver
                .request(method, params, config.driver.answer_timeout)
                .await
            else {
                break;
            };
            let Ok(harness::client::Reply::Result(raw)) = answered.reply() else {
                break;
            };
            let Ok(result) = serde_json::from_str::<Value>(raw.as_str()) else {
                break;
            };
            for item in result
                .get(member)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                match member {
                    "resources" => {
                        if let Some(uri) = item.get(key).and_then(Value::as_str) {
                            catalogue.resources.insert(uri.to_owned());
                        }
                    }
                    list => catalogue.learn_item(list, item),
                }
            }
            let issued = catalogue.cursors.entry(method.to_owned()).or_default();
            match result.get("nextCursor").and_then(Value::as_str) {
                Some(next) if issued.insert(next.to_owned()) => {
                    cursor = Some(next.to_owned());
                }
                _ => break,
            }
        }
    }
    catalogue
}
