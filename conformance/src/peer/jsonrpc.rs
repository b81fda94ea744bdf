//! The plain JSON-RPC 2.0 profile: the methods the specification's §7 examples
//! call, answered exactly as those examples answer.
//!
//! `subtract` takes positional (`[42, 23]`) or named (`{"minuend": 42,
//! "subtrahend": 23}`) params; `sum` adds an array; `get_data` returns
//! `["hello", 5]`; `update`, `notify_hello` and `notify_sum` are the examples'
//! notifications and do nothing observable (called as requests they are
//! -32601, "not available"). `echo` and `pay` are wirecheck's own fixtures.
//! Anything else is -32601 (§5.1).

use harness::Raw;
use serde_json::{json, Value};

use super::{Answer, Failure};

/// Answers a request for `method`.
pub(crate) fn call(method: &str, params: Option<&Raw<'_>>) -> Answer {
    let params = params.and_then(Raw::to_value);
    let value = match method {
        "subtract" => subtract(params.as_ref())?,
        "sum" => sum(params.as_ref())?,
        "get_data" => json!(["hello", 5]),
        // The wirecheck fixtures the exchange vectors call: `echo` answers its
        // params, `pay` fails with a server error carrying nested data.
        "echo" => params.unwrap_or(Value::Null),
        "pay" => {
            return Err(Failure::new(-32000, "Payment required").with_data(json!({
                "x402": {"accepts": [{"scheme": "exact", "amount": "1000"}]}
            })))
        }
        // §7 sends these only as notifications; as requests they are "not
        // available" (§5.1).
        _ => return Err(Failure::method_not_found(method)),
    };
    Ok(Raw::from_value(&value))
}

/// Handles a notification: none of the example methods has an effect to show,
/// and an unknown one is ignored, since a notification is never answered (§4.1).
pub(crate) fn notify(_method: &str, _params: Option<&Raw<'_>>) {}

/// A number as the examples use them: integers stay integers.
#[derive(Clone, Copy)]
enum Num {
    Int(i64),
    Float(f64),
}

impl Num {
    fn of(value: &Value) -> Option<Num> {
        value
            .as_i64()
            .map(Num::Int)
            .or_else(|| value.as_f64().map(Num::Float))
    }

    fn float(self) -> f64 {
        match self {
            #[expect(
                clippy::cast_precision_loss,
                reason = "mixing an integer with a float operand is float arithmetic"
            )]
            Num::Int(i) => i as f64,
            Num::Float(f) => f,
        }
    }

    fn combine(
        self,
        other: Num,
        int: fn(i64, i64) -> Option<i64>,
        float: fn(f64, f64) -> f64,
    ) -> Num {
        match (self, other) {
            (Num::Int(a), Num::Int(b)) => match int(a, b) {
                Some(n) => Num::Int(n),
                None => Num::Float(float(Num::Int(a).float(), Num::Int(b).float())),
            },
            (a, b) => Num::Float(float(a.float(), b.float())),
        }
    }

    fn value(self) -> Value {
        match self {
            Num::Int(i) => json!(i),
            Num::Float(f) => json!(f),
        }
    }
}

fn subtract(params: Option<&Value>) -> Result<Value, Failure> {
    let (minuend, subtrahend) = match params {
        Some(Value::Array(items)) if items.len() == 2 => (&items[0], &items[1]),
        Some(Value::Object(members)) => match (members.get("minuend"), members.get("subtrahend")) {
            (Some(m), Some(s)) => (m, s),
            _ => {
                return Err(Failure::invalid_params(
                    "subtract takes {\"minuend\": n, \"subtrahend\": n}",
                ))
            }
        },
        _ => {
            return Err(Failure::invalid_params(
                "subtract takes [minuend, subtrahend] or {\"minuend\", \"subtrahend\"}",
            ))
        }
    };
    match (Num::of(minuend), Num::of(subtrahend)) {
        (Some(a), Some(b)) => Ok(a.combine(b, i64::checked_sub, |a, b| a - b).value()),
        _ => Err(Failure::invalid_params(
            "subtract's operands must be numbers",
        )),
    }
}

fn sum(params: Option<&Value>) -> Result<Value, Failure> {
    let Some(Value::Array(items)) = params else {
        return Err(Failure::invalid_params("sum takes an array of numbers"));
    };
    let mut total = Num::Int(0);
    for item in items {
        let Some(n) = Num::of(item) else {
            return Err(Failure::invalid_params("sum takes an array of numbers"));
        };
        total = total.combine(n, i64::checked_add, |a, b| a + b);
    }
    Ok(total.value())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(method: &str, params: &str) -> Result<String, i64> {
        let params = Raw::parse(params).unwrap();
        call(method, Some(&params))
            .map(|r| r.as_str().to_owned())
            .map_err(|f| f.code)
    }

    #[test]
    fn section_7_answers() {
        assert_eq!(answer("subtract", "[42, 23]"), Ok("19".into()));
        assert_eq!(answer("subtract", "[23, 42]"), Ok("-19".into()));
        assert_eq!(
            answer("subtract", r#"{"subtrahend": 23, "minuend": 42}"#),
            Ok("19".into())
        );
        assert_eq!(answer("sum", "[1,2,4]"), Ok("7".into()));
        assert_eq!(answer("sum", "[1,2.5]"), Ok("3.5".into()));
        assert_eq!(answer("get_data", "[]"), Ok(r#"["hello",5]"#.into()));
        assert_eq!(answer("subtract", "[1]"), Err(-32602));
        assert_eq!(answer("sum", r#"["a"]"#), Err(-32602));
        assert_eq!(answer("foobar", "[]"), Err(-32601));
    }
}
