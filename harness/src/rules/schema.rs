//! What the official schemas say about each method: which revisions define it,
//! for which sender, and the members of its params and result. The data is
//! generated into `methods.rs` by `gen_methods.py`; this file holds its types
//! and the lookups the checks use.

use crate::ir::Raw;
use crate::profile::{Direction, Revision};
use crate::scan::ValueKind;

pub(crate) use super::methods::{META_KEYS, METHODS};

/// Who sends a method.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Sender {
    /// The client (the schema's `ClientRequest` / `ClientNotification`).
    Client,
    /// The server (`ServerRequest` / `ServerNotification`).
    Server,
}

impl From<Direction> for Sender {
    fn from(d: Direction) -> Self {
        match d {
            Direction::ClientToServer => Sender::Client,
            Direction::ServerToClient => Sender::Server,
        }
    }
}

/// Whether a method is a request or a notification.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Expects a reply.
    Request,
    /// Gets none.
    Notification,
}

/// JSON types a member may have, as bits; `0` means the schema does not pin them.
pub mod ty {
    /// An object.
    pub const OBJECT: u8 = 1;
    /// An array.
    pub const ARRAY: u8 = 2;
    /// A string.
    pub const STRING: u8 = 4;
    /// Any number.
    pub const NUMBER: u8 = 8;
    /// A number whose value is an integer.
    pub const INTEGER: u8 = 16;
    /// `true` or `false`.
    pub const BOOLEAN: u8 = 32;
    /// `null`.
    pub const NULL: u8 = 64;
}

/// One member of a params or result object, as the schema describes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Member {
    /// The member name.
    pub name: &'static str,
    /// Whether the schema lists it in `required`.
    pub required: bool,
    /// The JSON types it may have ([`ty`] bits; `0` when any).
    pub types: u8,
}

/// One method of one revision, for one sender.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MethodDef {
    /// The revision whose schema defines it.
    pub revision: Revision,
    /// Who sends it.
    pub sender: Sender,
    /// Request or notification.
    pub kind: Kind,
    /// The method name.
    pub method: &'static str,
    /// Whether `params` is required.
    pub params_required: bool,
    /// The members of `params`.
    pub params: &'static [Member],
    /// The members of the result, for a request whose result type the schema names.
    pub result: Option<&'static [Member]>,
}

/// Every method of every MCP revision, per sender, as the schemas define them.
#[must_use]
pub fn methods() -> &'static [MethodDef] {
    METHODS
}

/// The definition of `method` sent by `sender` in `revision`.
pub(crate) fn find(revision: Revision, sender: Sender, method: &str) -> Option<&'static MethodDef> {
    METHODS
        .iter()
        .find(|m| m.revision == revision && m.sender == sender && m.method == method)
}

/// Whether any revision defines `method` for any sender.
pub(crate) fn revisions_defining(method: &str) -> impl Iterator<Item = &'static MethodDef> + '_ {
    METHODS.iter().filter(move |m| m.method == method)
}

/// Whether `value` has one of the types in `types` (any when `types` is 0).
pub(crate) fn has_type(value: &Raw<'_>, types: u8) -> bool {
    if types == 0 {
        return true;
    }
    let bit = match value.kind() {
        ValueKind::Object => ty::OBJECT,
        ValueKind::Array => ty::ARRAY,
        ValueKind::String => ty::STRING,
        ValueKind::Bool => ty::BOOLEAN,
        ValueKind::Null => ty::NULL,
        ValueKind::Number => {
            if types & ty::NUMBER != 0 {
                return true;
            }
            return types & ty::INTEGER != 0 && is_integer(value.as_str());
        }
    };
    types & bit != 0
}

/// Whether a JSON number's value is an integer (`1`, `1.0`, `1e2`; not `1.5`).
pub(crate) fn is_integer(text: &str) -> bool {
    match crate::ir::decimal_value(text) {
        Some((_, _, exponent)) => exponent >= 0,
        // An exponent too large for i64: an integer unless it is negative.
        None => !text.contains("e-") && !text.contains("E-"),
    }
}

/// The type names in `types`, for messages: `string or integer`.
pub(crate) fn type_names(types: u8) -> String {
    let names: Vec<&str> = [
        (ty::OBJECT, "object"),
        (ty::ARRAY, "array"),
        (ty::STRING, "string"),
        (ty::NUMBER, "number"),
        (ty::INTEGER, "integer"),
        (ty::BOOLEAN, "boolean"),
        (ty::NULL, "null"),
    ]
    .iter()
    .filter(|(bit, _)| types & bit != 0)
    .map(|&(_, name)| name)
    .collect();
    names.join(" or ")
}
