//! The part of JSON Schema that `structuredContent` is judged against: a
//! tool's `outputSchema` (MCP server/tools §Output Schema, "Servers MUST
//! provide structured results that conform to this schema").
//!
//! Only the keywords whose meaning needs no other document are read: `type`,
//! `enum`, `const`, `required`, `properties`, `additionalProperties`, `items`
//! (one schema), and boolean schemas. Anything else (`$ref`, `anyOf`,
//! formats, bounds, patterns) is not judged, so a value this passes may still
//! break its schema; what this refuses breaks it for certain. The harness
//! holds no full validator on purpose: the codec crate stays small and free
//! of I/O (a full one resolves remote `$ref`s).

use serde_json::Value;

/// Where `value` first breaks `schema`, as a JSON Pointer into the value and
/// what is wrong; `None` when the keywords read here all hold.
pub(super) fn first_breach(schema: &Value, value: &Value) -> Option<(String, String)> {
    let mut pointer = String::new();
    breach(schema, value, &mut pointer)
}

fn type_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn is_type(value: &Value, name: &str) -> bool {
    match name {
        "integer" => value
            .as_f64()
            .is_some_and(|n| n.fract() == 0.0 && value.is_number()),
        "number" => value.is_number(),
        other => type_of(value) == other,
    }
}

fn breach(schema: &Value, value: &Value, pointer: &mut String) -> Option<(String, String)> {
    let here = |why: String| Some((pointer.clone(), why));
    let object = match schema {
        Value::Bool(false) => return here("the schema is `false`: no value conforms".into()),
        Value::Object(o) => o,
        _ => return None,
    };
    if object.contains_key("$ref") {
        // Not resolved here: the node is not judged.
        return None;
    }
    if let Some(t) = object.get("type") {
        let names: Vec<&str> = match t {
            Value::String(s) => vec![s.as_str()],
            Value::Array(list) => list.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        if !names.is_empty() && !names.iter().any(|n| is_type(value, n)) {
            return here(format!(
                "is {}, the schema's `type` is {}",
                type_of(value),
                names.join(" or ")
            ));
        }
    }
    if let Some(Value::Array(options)) = object.get("enum") {
        if !options.contains(value) {
            return here(format!("{value} is none of the schema's `enum`"));
        }
    }
    if let Some(c) = object.get("const") {
        if c != value {
            return here(format!("{value} is not the schema's `const` {c}"));
        }
    }
    if let Value::Object(members) = value {
        if let Some(Value::Array(required)) = object.get("required") {
            if let Some(name) = required
                .iter()
                .filter_map(Value::as_str)
                .find(|n| !members.contains_key(*n))
            {
                return here(format!("lacks `{name}`, which the schema requires"));
            }
        }
        let properties = object.get("properties").and_then(Value::as_object);
        for (name, member) in members {
            let sub = properties
                .and_then(|p| p.get(name))
                .or_else(|| object.get("additionalProperties"));
            let Some(sub) = sub else { continue };
            let len = pointer.len();
            crate::error::push_token(pointer, name);
            let found = breach(sub, member, pointer);
            pointer.truncate(len);
            if found.is_some() {
                return found;
            }
        }
    }
    if let (Value::Array(elements), Some(items)) = (value, object.get("items")) {
        if items.is_object() || items.is_boolean() {
            for (i, element) in elements.iter().enumerate() {
                let len = pointer.len();
                crate::error::push_token(pointer, &i.to_string());
                let found = breach(items, element, pointer);
                pointer.truncate(len);
                if found.is_some() {
                    return found;
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_keywords_read_refuse_what_breaks_them() {
        let schema = json!({
            "type": "object",
            "properties": {
                "temperature": {"type": "number"},
                "unit": {"enum": ["C", "F"]},
                "readings": {"type": "array", "items": {"type": "integer"}}
            },
            "required": ["temperature"],
            "additionalProperties": false
        });
        assert_eq!(
            first_breach(&schema, &json!({"temperature": 22.5, "unit": "C"})),
            None
        );
        assert_eq!(
            first_breach(&schema, &json!({"unit": "C"})).map(|b| b.0),
            Some(String::new())
        );
        assert_eq!(
            first_breach(&schema, &json!({"temperature": "warm"})).map(|b| b.0),
            Some("/temperature".to_owned())
        );
        assert_eq!(
            first_breach(&schema, &json!({"temperature": 1, "readings": [1, 2.5]})).map(|b| b.0),
            Some("/readings/1".to_owned())
        );
        assert_eq!(
            first_breach(&schema, &json!({"temperature": 1, "extra": 1})).map(|b| b.0),
            Some("/extra".to_owned())
        );
    }

    #[test]
    fn what_is_not_read_is_not_judged() {
        let schema = json!({"$ref": "#/$defs/x"});
        assert_eq!(first_breach(&schema, &json!(42)), None);
        let schema = json!({"anyOf": [{"type": "string"}]});
        assert_eq!(first_breach(&schema, &json!(42)), None);
    }
}
