//! The catalogue: every JSON-RPC 2.0 and MCP rule the model knows, in one table.
//!
//! Quotes are verbatim from JSON-RPC 2.0 and the MCP specification pages of each
//! revision (`docs/specification/<revision>/…`), or name the schema fact they
//! rest on. Where the specification is silent or contradicts itself the entry
//! says so and records the stance taken (the "A…" numbers are the ambiguity list
//! in `conformance/book/rules.md`, the rule-model chapter). Ids are stable: reports and vectors name
//! them. The codec's own refusal rules come first, one row per [`crate::Rule`]
//! variant; `rule_table!` ([`super::table`]) expands the table into [`RuleId`] and its facts
//! ([`RuleInfo`], one per row), and `id.rs` gives every id its behaviour. A
//! leaf of the rule model: it takes its words from `facts.rs` and nothing from
//! the rest of it, so the codec can name a [`RuleId`] without reaching into
//! the checks.

use super::facts::{CheckedBy, Level, Revisions};
use crate::codes::{INVALID_REQUEST, PARSE_ERROR};
use crate::profile::Revision;

const ALL: Revisions = Revisions::ALL;
const MCP: Revisions = Revisions::MCP;
const JSONRPC: Revisions = Revisions::only(Revision::JsonRpc2);
const JSONRPC_R1: Revisions = Revisions::range(Revision::JsonRpc2, Revision::Mcp2024_11_05);
const R1: Revisions = Revisions::only(Revision::Mcp2024_11_05);
const R2: Revisions = Revisions::only(Revision::Mcp2025_03_26);
const R3: Revisions = Revisions::only(Revision::Mcp2025_06_18);
const R4: Revisions = Revisions::only(Revision::Mcp2025_11_25);
const R5: Revisions = Revisions::only(Revision::Mcp2026_07_28);
const R1_R3: Revisions = Revisions::range(Revision::Mcp2024_11_05, Revision::Mcp2025_06_18);
const R1_R4: Revisions = Revisions::range(Revision::Mcp2024_11_05, Revision::Mcp2025_11_25);
/// Streamable HTTP with sessions (2026-07-28 dropped them).
const R2_R4: Revisions = Revisions::range(Revision::Mcp2025_03_26, Revision::Mcp2025_11_25);
const R2_R5: Revisions = Revisions::range(Revision::Mcp2025_03_26, Revision::Mcp2026_07_28);
/// The revisions whose schema page describes `resources/unsubscribe`.
const R3_R4: Revisions = Revisions::range(Revision::Mcp2025_06_18, Revision::Mcp2025_11_25);
const R3_R5: Revisions = Revisions::range(Revision::Mcp2025_06_18, Revision::Mcp2026_07_28);
const R4_R5: Revisions = Revisions::range(Revision::Mcp2025_11_25, Revision::Mcp2026_07_28);
/// Plain JSON-RPC 2.0 and 2025-03-26: the profiles where batches exist.
const BATCHES: Revisions = JSONRPC.with(R2);

use CheckedBy::{Frame, Reply, Runner, Session, Transport, Unchecked};
use Level::{May, Must, MustNot, Should, ShouldNot};

// The table, grouped as the specification is. Kept as written, one row per rule,
// so a rule reads top to bottom.
#[rustfmt::skip]
rule_table! {
    codec {
        JsonUtf8 = "json.utf8", PARSE_ERROR, Must, "RFC 8259 §8.1",
          "JSON text exchanged between systems that are not part of a closed ecosystem MUST be encoded using UTF-8.";
        JsonSyntax = "json.syntax", PARSE_ERROR, Must, "RFC 8259 §2",
          "A JSON text is a sequence of tokens. (RFC 8259 §2; JSON-RPC 2.0 §5.1: -32700 \"Invalid JSON was received by the server.\")";
        JsonDepthLimit = "json.depth-limit", PARSE_ERROR, May, "RFC 8259 §9",
          "An implementation may set limits on the maximum depth of nesting. (A MAY of the receiver, not a fault of the sender: a frame nested past this codec's limit (512) is refused by wirecheck, and reported at MAY, never a failure or a warning of the peer that sent it.)";
        JsonFrameTooLarge = "json.frame-too-large", PARSE_ERROR, May, "RFC 8259 §9",
          "An implementation may set limits on the size of texts that it accepts. (A MAY of the receiver: reported at MAY, never a failure or a warning of the sender.)";
        FrameType = "jsonrpc.frame-type", INVALID_REQUEST, Must, "JSON-RPC 2.0 §4",
          "The Request object … is a single JSON Object; a batch is an Array filled with Request objects. (-32600 \"The JSON sent is not a valid Request object.\")";
        BatchEmpty = "jsonrpc.batch-empty", INVALID_REQUEST, Must, "JSON-RPC 2.0 §6",
          "If the batch rpc call itself fails to be recognized as an valid JSON or as an Array with at least one value, the response from the Server MUST be a single Response object. … If there are no Response objects contained within the Response array as it is to be sent to the client, the server MUST NOT return an empty Array and should return nothing at all.";
        DuplicateMember = "jsonrpc.duplicate-member", INVALID_REQUEST, Should, "RFC 8259 §4 (names SHOULD be unique)",
          "The names within an object SHOULD be unique. (RFC 8259 §4; refused by the codec, since peers disagree on which duplicate wins, and reported at the text's SHOULD: a warning, never a failure.)";
        VersionMissing = "jsonrpc.version-missing", INVALID_REQUEST, Must, "JSON-RPC 2.0 §4",
          "A String specifying the version of the JSON-RPC protocol. MUST be exactly \"2.0\".";
        VersionInvalid = "jsonrpc.version-invalid", INVALID_REQUEST, Must, "JSON-RPC 2.0 §4",
          "A String specifying the version of the JSON-RPC protocol. MUST be exactly \"2.0\".";
        MethodType = "jsonrpc.method-type", INVALID_REQUEST, Must, "JSON-RPC 2.0 §4",
          "A String containing the name of the method to be invoked.";
        IdType = "jsonrpc.id-type", INVALID_REQUEST, Must, "JSON-RPC 2.0 §4",
          "An identifier established by the Client that MUST contain a String, Number, or NULL value if included.";
        ParamsType = "jsonrpc.params-type", INVALID_REQUEST, Must, "JSON-RPC 2.0 §4.2",
          "If present, parameters for the rpc call MUST be provided as a Structured value.";
        ResultAndError = "jsonrpc.result-and-error", INVALID_REQUEST, Must, "JSON-RPC 2.0 §5",
          "Either the result member or error member MUST be included, but both members MUST NOT be included.";
        MethodWithResponse = "jsonrpc.method-with-response", INVALID_REQUEST, May, "JSON-RPC 2.0 §5",
          "The Request object has a `method` member; the Response object has `result` or `error`. (JSON-RPC 2.0 says nothing of members beyond those it lists, so an object with `method` and `result` or `error` breaks no keyword: the codec refuses it, since it cannot tell a request from a response, and reports it at MAY; a receiver may equally read it as the request its `method` names.)";
        KindMissing = "jsonrpc.kind-missing", INVALID_REQUEST, Must, "JSON-RPC 2.0 §5",
          "The Request object has a `method` member; the Response object has `result` or `error`: an object with neither shape is not a valid Request object.";
        ResponseIdMissing = "jsonrpc.response-id-missing", INVALID_REQUEST, Must, "JSON-RPC 2.0 §5",
          "id: This member is REQUIRED.";
        ErrorType = "jsonrpc.error-type", INVALID_REQUEST, Must, "JSON-RPC 2.0 §5.1",
          "The value for this member MUST be an Object as defined in section 5.1.";
        ErrorCode = "jsonrpc.error-code", INVALID_REQUEST, Must, "JSON-RPC 2.0 §5.1",
          "A Number that indicates the error type that occurred. This MUST be an integer.";
        ErrorMessage = "jsonrpc.error-message", INVALID_REQUEST, Must, "JSON-RPC 2.0 §5.1",
          "message: A String providing a short description of the error.";
    }
    rules {
        // ---- JSON-RPC 2.0 -------------------------------------------------------------
        JsonrpcRequestMethodRpcReserved = "jsonrpc.request.method-rpc-reserved", MustNot, "JSON-RPC 2.0 §4",
          "Method names that begin with the word rpc followed by a period character (U+002E or ASCII 46) are reserved for rpc-internal methods and extensions and MUST NOT be used for anything else.",
          ALL, Frame;
        JsonrpcRequestIdNotNull = "jsonrpc.request.id-not-null", ShouldNot, "JSON-RPC 2.0 §4",
          "The value SHOULD normally not be Null [1] … (MCP makes this a MUST NOT: mcp.base.id-not-null.)",
          JSONRPC, Frame;
        JsonrpcRequestIdNoFraction = "jsonrpc.request.id-no-fraction", ShouldNot, "JSON-RPC 2.0 §4",
          "… and Numbers SHOULD NOT contain fractional parts [2]. (Checked on the number as written: `1.0` has a fractional part, `1e2` does not. MCP adds mcp.base.id-type for a value that is not an integer.)",
          ALL, Frame;
        JsonrpcResponseIdEcho = "jsonrpc.response.id-echo", Must, "JSON-RPC 2.0 §4, §5",
          "The Server MUST reply with the same value in the Response object if included. … It MUST be the same as the value of the id member in the Request Object. (Same value means same JSON type: \"1\" is not 1. MCP restates it: mcp.base.response-id-match, mcp.base.result-response-id, mcp.base.error-response-id.)",
          JSONRPC, Reply;
        JsonrpcResponseIdRequired = "jsonrpc.response.id-required", Must, "JSON-RPC 2.0 §5",
          "id: This member is REQUIRED. … If there was an error in detecting the id in the Request object (e.g. Parse error/Invalid Request), it MUST be Null. (MCP 2024-11-05 keeps it: schema `JSONRPCError.required` has `id`. 2025-03-26 and 2025-06-18: see mcp.base.error-id-absent; 2025-11-25 makes it optional.)",
          JSONRPC_R1, Frame;
        JsonrpcResponseRequired = "jsonrpc.response.required", Must, "JSON-RPC 2.0 §5",
          "When a rpc call is made, the Server MUST reply with a Response, except for in the case of Notifications.",
          ALL, Reply;
        JsonrpcNotificationNoReply = "jsonrpc.notification.no-reply", MustNot, "JSON-RPC 2.0 §4.1",
          "The Server MUST NOT reply to a Notification, including those that are within a batch request. (MCP 2025-03-26 on restates it: mcp.base.notification-no-response.)",
          JSONRPC_R1, Reply;
        JsonrpcBatchRespondArray = "jsonrpc.batch.respond-array", Should, "JSON-RPC 2.0 §6",
          "The Server should respond with an Array containing the corresponding Response objects, after all of the batch Request objects have been processed. (Lowercase \"should\" in the text; reported at SHOULD.)",
          BATCHES, Reply;
        JsonrpcBatchOneResponsePerRequest = "jsonrpc.batch.one-response-per-request", Should, "JSON-RPC 2.0 §6",
          "A Response object SHOULD exist for each Request object, except that there SHOULD NOT be any Response objects for notifications.",
          BATCHES, Reply;
        JsonrpcBatchInvalidSingleResponse = "jsonrpc.batch.invalid-single-response", Must, "JSON-RPC 2.0 §6",
          "If the batch rpc call itself fails to be recognized as an valid JSON or as an Array with at least one value, the response from the Server MUST be a single Response object.",
          BATCHES, Unchecked("the request does not lift, so no request frame exists to pair a reply with; the golden vectors record the expected answer");
        JsonrpcParamsByName = "jsonrpc.params.by-name", Must, "JSON-RPC 2.0 §4.2",
          "by-name: params MUST be an Object, with member names that match the Server expected parameter names. … The names MUST match exactly, including case, to the method's expected parameters.",
          JSONRPC, Unchecked("needs the server's parameter names, which no frame carries; MCP methods are checked against their schema by mcp.schema.request-params");
        // Closing the gap: a §5.1 sentence no quote carried.
        JsonrpcErrorMessageSingleSentence = "jsonrpc.error.message-single-sentence", Should, "JSON-RPC 2.0 §5.1",
          "The message SHOULD be limited to a concise single sentence. (Checked on what is certainly not one sentence: a line break, or a stop followed by a space and a capital. MCP's error responses are JSON-RPC's: every revision.)",
          ALL, Frame;

        // A code whose defined meaning is not the error's.
        JsonrpcErrorCodeMeaning = "jsonrpc.error.code-meaning", Should, "JSON-RPC 2.0 §5.1",
          "-32700 Parse error: Invalid JSON was received by the server. An error occurred on the server while parsing the JSON text. -32600 Invalid Request: The JSON sent is not a valid Request object. -32601 Method not found: The method does not exist / is not available. -32602 Invalid params: Invalid method parameter(s). -32603 Internal error: Internal JSON-RPC error. (The table defines each code's meaning and carries no keyword, and no sentence makes a receiver use it: a code whose defined meaning is not the error's (-32700 for valid JSON, -32602 for a method that does not exist, -32603 for params a request lacks) misstates the error, reported at SHOULD, a warning, never a failure. Checked on the exchange for -32700 answering a request that lifts, which is valid JSON by construction; and by the golden vectors whose answer is the code the table defines for their fault.)",
          ALL, Reply;

        // ---- MCP base messages ------------------------------------------------------
        McpBaseIdType = "mcp.base.id-type", Must, "MCP basic/index §Messages › Requests | 2024-11-05: MCP basic/messages §Requests",
          "Requests MUST include a string or integer ID. (Schema `RequestId`: [\"string\",\"integer\"]; checked on request ids, and on a method the revision defines as a request sent without one; a response echoes whatever id came, so its id is judged by the echo rules. `1.0` is an integer to JSON Schema and is left to jsonrpc.request.id-no-fraction: ambiguity A1.)",
          MCP, Frame;
        McpBaseIdNotNull = "mcp.base.id-not-null", MustNot, "MCP basic/index §Messages › Requests | 2024-11-05: MCP basic/messages §Requests",
          "Unlike base JSON-RPC, the ID MUST NOT be `null`.",
          MCP, Frame;
        McpBaseErrorIdNull = "mcp.base.error-id-null", ShouldNot, "MCP schema `JSONRPCError`/`JSONRPCErrorResponse`; JSON-RPC 2.0 §5",
          "Schema: an error response's `id` is a `RequestId` ([\"string\",\"integer\"]) in every revision, so `\"id\": null` is schema-invalid, while JSON-RPC 2.0 §5 says the id \"MUST be Null\" when it could not be read. The two conflict (ambiguity A2): reported at SHOULD NOT, never as a MUST failure.",
          MCP, Frame;
        McpBaseErrorIdAbsent = "mcp.base.error-id-absent", ShouldNot, "MCP schema `JSONRPCError`; basic/transports §Sending Messages to the Server",
          "Schema: `JSONRPCError.required` = [\"error\",\"id\",\"jsonrpc\"], yet the Streamable HTTP transport says \"The HTTP response body MAY comprise a JSON-RPC error response that has no `id`.\" The two conflict (ambiguity A2): an error response without `id` is reported at SHOULD NOT, never as a MUST failure.",
          Revisions::range(Revision::Mcp2025_03_26, Revision::Mcp2025_06_18), Frame;
        McpBaseIdUniqueSession = "mcp.base.id-unique-session", MustNot, "MCP basic/index §Messages › Requests",
          "The request ID MUST NOT have been previously used by the requestor within the same session.",
          R1_R4, Session;
        McpBaseIdUniqueInflight = "mcp.base.id-unique-inflight", MustNot, "MCP basic/index §Messages › Requests",
          "The request ID MUST NOT match the ID of any other request the sender has issued and not yet received a response for.",
          R5, Session;
        McpBaseResponseIdMatch = "mcp.base.response-id-match", Must, "MCP basic/index §Messages › Responses | 2024-11-05: MCP basic/messages §Responses",
          "Responses MUST include the same ID as the request they correspond to.",
          R1_R3, Reply;
        McpBaseResultResponseId = "mcp.base.result-response-id", Must, "MCP basic/index §Messages › Responses › Result Responses",
          "Result responses MUST include the same ID as the request they correspond to.",
          R4_R5, Reply;
        McpBaseErrorResponseId = "mcp.base.error-response-id", Must, "MCP basic/index §Messages › Responses › Error Responses",
          "Error responses MUST include the same ID as the request they correspond to (except in error cases where the ID could not be read due a malformed request). (Schema 2025-11-25 on: `JSONRPCErrorResponse.required` = [\"error\",\"jsonrpc\"], so the id may be absent on its own; not in the changelog: ambiguity A18.)",
          R4_R5, Reply;
        McpBaseResultObject = "mcp.base.result-object", Must, "MCP basic/index §Messages › Responses; schema `Result` | 2024-11-05: MCP basic/index (opening, before §Protocol Layers); schema `Result` | 2025-11-25: MCP basic/index §Messages › Responses › Result Responses; schema `Result` | 2026-07-28: MCP basic/index §Messages › Responses › Result Responses; schema `Result`",
          "Results MAY follow any JSON object structure, while errors MUST include an error code and message at minimum. (2024-11-05 words it in lower case: \"Results can follow any JSON object structure, while errors must include an error code and message at minimum.\" 2025-11-25 on: \"Result responses MUST include a `result` field. The `result` MAY follow any JSON object structure.\" Schema: `Result` is `type: object` in every revision, so `\"result\": null` or `5` is invalid.)",
          MCP, Frame;
        McpBaseParamsObject = "mcp.base.params-object", Must, "MCP schema `JSONRPCRequest.params`, `JSONRPCNotification.params`",
          "Schema: `params` is an object in every revision (by-position array params are not MCP).",
          MCP, Frame;
        McpBaseNotificationNoId = "mcp.base.notification-no-id", MustNot, "MCP basic/index §Messages › Notifications | 2024-11-05: MCP basic/messages §Notifications",
          "Notifications MUST NOT include an ID. (Checked on methods the revision defines as notifications: sent with an id they are requests, and a receiver that answers them answers a notification.)",
          MCP, Frame;
        McpBaseNotificationNoResponse = "mcp.base.notification-no-response", MustNot, "MCP basic/index §Messages › Notifications",
          "Notifications are sent from the client to the server or vice versa, as a one-way message. The receiver MUST NOT send a response.",
          R2_R5, Reply;
        McpBaseResultTypeRequired = "mcp.base.result-type-required", Must, "MCP basic/index §Messages › Responses › Result Responses",
          "The `result` MUST include a `resultType` field to indicate the type of the result.",
          R5, Frame;
        McpBaseResultTypeValues = "mcp.base.result-type-values", Must, "MCP basic/index §ResultType",
          "A `resultType` of any value unrecognized by the client MUST be considered invalid. (Recognized: \"complete\", \"input_required\".)",
          R5, Frame;

        // ---- MCP error codes --------------------------------------------------------
        McpErrorReservedRange = "mcp.error.reserved-range", MustNot, "MCP basic/index §Error Codes",
          "`-32020` to `-32099` — reserved for the MCP specification. … Implementations MUST NOT emit any code from this sub-range that is not defined by this specification and MUST use defined codes only with their specified meanings.",
          R5, Frame;
        McpErrorLegacyRange = "mcp.error.legacy-range", ShouldNot, "MCP basic/index §Error Codes",
          "`-32000` to `-32019` — legacy. … New codes MUST NOT be allocated in this sub-range, and new implementations SHOULD NOT use codes from this sub-range at all.",
          R5, Frame;
        McpErrorRetiredCodes = "mcp.error.retired-codes", MustNot, "MCP basic/index §Error Codes",
          "Codes defined by earlier protocol versions remain reserved and will not be reused. Implementations of this protocol version MUST NOT emit these codes: `-32002` — resource not found (2025-11-25 and earlier; replaced by `-32602`). … `-32042` — URL elicitation required (2025-11-25 only).",
          R5, Frame;
        McpErrorCodeUnsupportedVersion = "mcp.error.code.unsupported-version", Must, "MCP basic/versioning §Protocol Version Negotiation; schema `UnsupportedProtocolVersionError`",
          "If the server does not implement the requested version …, it MUST respond with an UnsupportedProtocolVersionError listing the versions it does support. (Schema: code -32022, `error.data.required` = [\"requested\",\"supported\"], `supported` an array of strings.)",
          R5, Frame;
        McpErrorCodeMissingClientCapability = "mcp.error.code.missing-client-capability", Must, "MCP basic/index §_meta › Per-request protocol fields; schema `MissingRequiredClientCapabilityError`",
          "… the server MUST return a MissingRequiredClientCapabilityError (`-32021`) whose `data.requiredCapabilities` lists the missing capabilities.",
          R5, Frame;
        McpErrorCodeUrlElicitationRequired = "mcp.error.code.url-elicitation-required", Must, "MCP client/elicitation §URL Elicitation Required Error",
          "The error MUST include a list of elicitations that are required to complete before the original can be retried. Any elicitations returned in the error MUST be URL mode elicitations and have an `elicitationId` property. (Schema: code -32042, `error.data.required` = [\"elicitations\"].)",
          R4, Frame;
        McpErrorCodeResourceNotFound32002 = "mcp.error.code.resource-not-found-32002", Should, "MCP server/resources §Error Handling",
          "Servers SHOULD return standard JSON-RPC errors for common failure cases: Resource not found: `-32002`",
          R1_R4, Unchecked("needs to know that the resource does not exist, which only the server knows");
        McpErrorCodeResourceNotFound32602 = "mcp.error.code.resource-not-found-32602", Must, "MCP server/resources §Error Handling",
          "If the requested resource does not exist, servers MUST return a JSON-RPC error with code `-32602` (Invalid Params). (Checked on the exchange: a `resources/read` answered with the retired `-32002`.)",
          R5, Reply;
        McpErrorInvalidCursor = "mcp.error.invalid-cursor", Should, "MCP server/utilities/pagination §Error Handling",
          "Invalid cursors SHOULD result in an error with code -32602 (Invalid params). (Checked by the live runner, which alone knows a cursor no server issued: `tools/list`, `prompts/list` and `resources/list`, each only when the server declared that capability, sent with the cursor `wirecheck-never-issued`; anything but a -32602 error warns, a page included: the server ignored the cursor or took it. A capture cannot show it: a cursor may come from an earlier connection. `wirecheck fuzz --stateful` sends such cursors inside sequences too, on every list the server declared, `resources/templates/list` included.)",
          MCP, Runner;

        // ---- MCP batching -----------------------------------------------------------
        McpBatchNoneR1 = "mcp.batch.none-r1", ShouldNot, "MCP 2024-11-05 (silent); MCP 2025-03-26 basic/lifecycle §Initialization",
          "2024-11-05 never mentions batches and its schema's `JSONRPCMessage` has no array; 2025-03-26 calls it a prior version \"that do[es] not explicitly support JSON-RPC batches\". wirecheck's stance: a batch is reported at SHOULD NOT, not MUST NOT, since JSON-RPC 2.0 allows it and the revision does not forbid it. Checked on a batch of requests or notifications only: an array of responses answering a batch is what JSON-RPC 2.0 §6 asks for, and no 2024-11-05 sentence is against it.",
          R1, Frame;
        McpBatchMustReceive = "mcp.batch.must-receive", Must, "MCP basic/index §Messages › Batching",
          "MCP implementations MAY support sending JSON-RPC batches, but MUST support receiving JSON-RPC batches. (Checked on the exchange: a batch answered by one error is a batch not received, unless the revision itself makes the batch invalid, holding `initialize` (\"The initialize request MUST NOT be part of a JSON-RPC batch\") or mixing calls and responses (A6): refusing that one whole answers its fault.)",
          R2, Reply;
        McpBatchInitializeNotInBatch = "mcp.batch.initialize-not-in-batch", MustNot, "MCP basic/lifecycle §Initialization",
          "The initialize request MUST NOT be part of a JSON-RPC batch, as other requests and notifications are not possible until initialization has completed.",
          R2, Frame;
        McpBatchHttpPostBodyR2 = "mcp.batch.http-post-body-r2", Must, "MCP basic/transports §Streamable HTTP › Sending Messages to the Server; schema `JSONRPCBatchRequest`/`JSONRPCBatchResponse`",
          "The body of the POST request MUST be one of the following: A single JSON-RPC request, notification, or response; An array batching one or more requests and/or notifications; An array batching one or more responses. (The schema's batch types agree on every transport: a batch mixing calls and responses is invalid: ambiguity A6.)",
          R2, Frame;
        McpBatchRemoved = "mcp.batch.removed", MustNot, "MCP basic/transports §Sending Messages to the Server; 2025-06-18 changelog §Major changes | 2026-07-28: MCP basic/transports/streamable-http §Sending Messages; 2025-06-18 changelog §Major changes",
          "Remove support for JSON-RPC batching. … The body of the POST request MUST be a single JSON-RPC request, notification, or response. (stdio says the same in its own words: 2025-06-18 and 2025-11-25 basic/transports §stdio \"Messages are individual JSON-RPC requests, notifications, or responses.\"; 2026-07-28 basic/transports/stdio \"Each message is a single JSON-RPC request, notification, or response.\", and its HTTP page \"The body of the HTTP POST MUST be a single JSON-RPC request or notification.\" The schema has no array type from 2025-06-18 on. What a receiver does with an array is ambiguity A5.)",
          R3_R5, Frame;
        McpBatchAcceptedAfterRemoval = "mcp.batch.accepted-after-removal", ShouldNot, "MCP 2025-06-18 changelog §Major changes",
          "Remove support for JSON-RPC batching. (What a receiver must do with an array is unspecified (ambiguity A5): processing its elements and answering with an array is reported at SHOULD NOT; any error answer is accepted.)",
          R3_R5, Reply;
        McpBatchRefusedAfterRemoval = "mcp.batch.refused-after-removal", Should, "MCP 2025-06-18 changelog §Major changes; JSON-RPC 2.0 §5",
          "Remove support for JSON-RPC batching. … When a rpc call is made, the Server MUST reply with a Response, except for in the case of Notifications. (The array's requests are calls JSON-RPC 2.0 answers, and MCP no longer processes arrays: what a receiver owes one is unspecified (ambiguity A5), so wirecheck expects an error answering it and reports an array of requests left unanswered at SHOULD, never as a failure. Processing it is mcp.batch.accepted-after-removal.)",
          R3_R5, Reply;

        // ---- MCP lifecycle (handshake revisions) --------------------------------------
        McpLifecycleClientSendsInitialize = "mcp.lifecycle.client-sends-initialize", Must, "MCP basic/lifecycle §Initialization",
          "The client MUST initiate this phase by sending an `initialize` request containing: Protocol version supported, Client capabilities, Client implementation information. (Schema: params required [capabilities, clientInfo, protocolVersion].)",
          R1_R4, Frame;
        McpLifecycleServerResponds = "mcp.lifecycle.server-responds", Must, "MCP basic/lifecycle §Initialization",
          "The server MUST respond with its own capabilities and information. (Schema: `InitializeResult` required [capabilities, protocolVersion, serverInfo].)",
          R1_R4, Reply;
        McpLifecycleInitializeFirst = "mcp.lifecycle.initialize-first", Must, "MCP basic/lifecycle §Initialization",
          "The initialization phase MUST be the first interaction between client and server.",
          R1_R4, Session;
        McpLifecycleInitializedNotification = "mcp.lifecycle.initialized-notification", Must, "MCP basic/lifecycle §Initialization",
          "After successful initialization, the client MUST send an `initialized` notification to indicate it is ready to begin normal operations.",
          R1_R4, Session;
        McpLifecycleClientPreInitRequests = "mcp.lifecycle.client-pre-init-requests", ShouldNot, "MCP basic/lifecycle §Initialization",
          "The client SHOULD NOT send requests other than pings before the server has responded to the `initialize` request.",
          R1_R4, Session;
        McpLifecycleServerPreInitializedRequests = "mcp.lifecycle.server-pre-initialized-requests", ShouldNot, "MCP basic/lifecycle §Initialization",
          "The server SHOULD NOT send requests other than pings and logging before receiving the `initialized` notification. (Logging is a notification: ambiguity A8.)",
          R1_R4, Session;
        McpLifecycleVersionServer = "mcp.lifecycle.version-server", Must, "MCP basic/lifecycle §Version Negotiation",
          "If the server supports the requested protocol version, it MUST respond with the same version. Otherwise, the server MUST respond with another protocol version it supports. (The §Error Handling example answers -32602 instead: ambiguity A7; both are accepted. Checked by the live runner, each revision asked in its own session: an answer naming no version fails; under `--revision all`, a version V answered to another revision fails when V was itself declined when asked for, so it is not one the server supports. Which versions a server supports is otherwise its own.)",
          R1_R4, Runner;
        McpCancelNotInitialize = "mcp.cancel.not-initialize", MustNot, "MCP basic/utilities/cancellation §Behavior Requirements",
          "The `initialize` request MUST NOT be cancelled by clients",
          R1_R4, Session;
        McpCancelSameDirection = "mcp.cancel.same-direction", Must, "MCP basic/utilities/cancellation §Behavior Requirements",
          "Cancellation notifications MUST only reference requests that: Were previously issued in the same direction; Are believed to still be in-progress",
          R1_R4, Session;
        McpCancelClientOnly = "mcp.cancel.client-only", Must, "MCP basic/patterns/cancellation §Behavior Requirements",
          "Server-sent cancellation notifications MUST reference a `subscriptions/listen` request, to terminate that subscription stream",
          R5, Session;
        McpPingRespond = "mcp.ping.respond", Must, "MCP basic/utilities/ping §Behavior Requirements",
          "The receiver MUST respond promptly with an empty response. (Schema `EmptyResult`: an object; `_meta` is allowed: ambiguity A14.)",
          R1_R4, Reply;
        McpProgressTokenType = "mcp.progress.token-type", Must, "MCP basic/utilities/progress §Progress Flow | 2026-07-28: MCP basic/patterns/progress §Progress Flow",
          "Progress tokens MUST be a string or integer value",
          MCP, Frame;
        McpProgressTokenUnique = "mcp.progress.token-unique", Must, "MCP basic/utilities/progress §Progress Flow | 2026-07-28: MCP basic/patterns/progress §Progress Flow",
          "Progress tokens … MUST be unique across all active requests.",
          MCP, Session;
        McpProgressIncrease = "mcp.progress.increase", Must, "MCP basic/utilities/progress §Progress Flow | 2026-07-28: MCP basic/patterns/progress §Progress Flow",
          "The `progress` value MUST increase with each notification, even if the total is unknown.",
          MCP, Session;

        McpProgressActiveTokenOnly = "mcp.progress.active-token-only", Must, "MCP basic/utilities/progress §Behavior Requirements | 2026-07-28: MCP basic/patterns/progress §Behavior Requirements",
          "Progress notifications MUST only reference tokens that: Were provided in an active request; Are associated with an in-progress operation",
          MCP, Session;
        McpCancelReceiverShould = "mcp.cancel.receiver-should", Should, "MCP basic/utilities/cancellation §Behavior Requirements | 2026-07-28: MCP basic/patterns/cancellation §Behavior Requirements",
          "Receivers of cancellation notifications SHOULD: Stop processing the cancelled request; Free associated resources; Not send a response for the cancelled request",
          MCP, Session;
        McpLifecycleOperationRespectR1 = "mcp.lifecycle.operation-respect-r1", Should, "MCP basic/lifecycle §Operation",
          "Both parties SHOULD: Respect the negotiated protocol version; Only use capabilities that were successfully negotiated",
          Revisions::range(Revision::Mcp2024_11_05, Revision::Mcp2025_03_26), Session;
        McpLifecycleOperationRespect = "mcp.lifecycle.operation-respect", Must, "MCP basic/lifecycle §Operation",
          "Both parties MUST: Respect the negotiated protocol version; Only use capabilities that were successfully negotiated",
          Revisions::range(Revision::Mcp2025_06_18, Revision::Mcp2025_11_25), Session;
        McpTasksInitialWorking = "mcp.tasks.initial-working", Must, "MCP basic/utilities/tasks §Behavior Requirements",
          "Tasks MUST begin in the `working` status when created. (Checked on the `CreateTaskResult` answering a task-augmented request.)",
          R4, Reply;
        McpTasksTerminalFinal = "mcp.tasks.terminal-final", MustNot, "MCP basic/utilities/tasks §Behavior Requirements",
          "Tasks with a `completed`, `failed`, or `cancelled` status are in a terminal state and MUST NOT transition to any other status (Checked by the session judge: the statuses of each task id in `CreateTaskResult`, `tasks/get` and `tasks/cancel` results and `notifications/tasks/status`; a later status other than the terminal one breaks it. §Task Cancellation: \"Once a task is cancelled, it MUST remain in `cancelled` status\".)",
          R4, Session;
        McpTasksIdUnique = "mcp.tasks.id-unique", Must, "MCP basic/utilities/tasks §Behavior Requirements › Task ID Requirements",
          "Task IDs MUST be unique among all tasks controlled by the receiver. (Checked by the session judge: a `CreateTaskResult` whose `taskId` a `CreateTaskResult` of the same receiver already carried in the conversation; tasks of an earlier connection are not seen.)",
          R4, Session;
        McpTasksUnknownId = "mcp.tasks.unknown-id", Must, "MCP basic/utilities/tasks §Error Handling › Protocol Errors",
          "Receivers MUST return standard JSON-RPC errors for the following protocol error cases: Invalid or nonexistent `taskId` in `tasks/get`, `tasks/result`, or `tasks/cancel`: `-32602` (Invalid params)",
          R4, Unchecked("needs the task ids the receiver created: a task may come from an earlier connection (the live runner judges it with a task id it never received)");

        // ---- MCP 2026-07-28: stateless requests ------------------------------------
        McpR5MetaRequiredFields = "mcp.r5.meta.required-fields", Must, "MCP basic/index §_meta › Per-request protocol fields",
          "Client requests carry the following `io.modelcontextprotocol/*` fields in `_meta`; fields marked as required MUST be included on every request. (Required: `io.modelcontextprotocol/protocolVersion` (string), `io.modelcontextprotocol/clientCapabilities` (object).)",
          R5, Frame;
        McpR5MetaMissingRequired = "mcp.r5.meta.missing-required", Must, "MCP basic/index §_meta › Per-request protocol fields",
          "A request missing any required field is malformed; the server MUST reject it with JSON-RPC error code `-32602` (Invalid params).",
          R5, Reply;
        McpR5MetaClientInfo = "mcp.r5.meta.client-info", Should, "MCP basic/index §_meta › Per-request protocol fields",
          "Clients SHOULD include `io.modelcontextprotocol/clientInfo` on every request unless specifically configured not to do so.",
          R5, Frame;
        McpR5MetaServerInfo = "mcp.r5.meta.server-info", Should, "MCP basic/index §_meta › Per-response protocol fields",
          "Servers SHOULD include the following `io.modelcontextprotocol/*` field in every result's `_meta`, unless specifically configured not to do so: `io.modelcontextprotocol/serverInfo`",
          R5, Frame;
        McpR5VersionUnsupported = "mcp.r5.version.unsupported", Must, "MCP basic/versioning §Protocol Version Negotiation",
          "If the server does not implement the requested version (whether the version is unknown to the server, or is a known version the server has chosen not to support), it MUST respond with an UnsupportedProtocolVersionError listing the versions it does support. (Checked on the exchange for a version no MCP revision has: no server can implement it.)",
          R5, Reply;
        McpR5DiscoverRequired = "mcp.r5.discover.required", Must, "MCP basic/versioning §Protocol Version Negotiation",
          "Servers MUST implement `server/discover`.",
          R5, Reply;
        McpR5LegacyInitializeError = "mcp.r5.legacy-initialize-error", Should, "MCP basic/versioning §Backward Compatibility",
          "A server that supports only modern versions SHOULD name the protocol versions it supports in any error it returns to an `initialize` request, on any transport",
          R5, Reply;
        McpR5StdioNoServerRequests = "mcp.r5.stdio.no-server-requests", MustNot, "MCP basic/transports/stdio §Receiving Messages, §Sending Messages",
          "The server MUST NOT write JSON-RPC requests to `stdout`. … The client MUST NOT write JSON-RPC responses. (The schema agrees: no `ServerRequest`, and `ClientResult` is only the empty `Result`.)",
          R5, Frame;
        McpR5NoPriorContext = "mcp.r5.no-prior-context", MustNot, "MCP basic/index §Statelessness",
          "Servers MUST NOT rely on prior requests over the same connection to establish context (e.g., capabilities, protocol version, client identity).",
          R5, Unchecked("needs the server's internals: what it relied on is not on the wire");
        McpR5SubscriptionIdMeta = "mcp.r5.subscription-id-meta", Must, "MCP basic/patterns/subscriptions",
          "The server MUST send `notifications/subscriptions/acknowledged` as the first message carrying the subscription's ID in `_meta` under `io.modelcontextprotocol/subscriptionId`. (Checked on that notification; other notifications need to know which stream they travel on.)",
          R5, Frame;
        McpR5MrtrInputRequiredMethods = "mcp.r5.mrtr.input-required-methods", MustNot, "MCP basic/patterns/mrtr",
          "Servers MUST NOT send `InputRequiredResult` responses on any other client requests. (Allowed on `prompts/get`, `resources/read`, `tools/call`.)",
          R5, Reply;
        McpR5MrtrInputRequiredContent = "mcp.r5.mrtr.input-required-content", Must, "MCP basic/patterns/mrtr",
          "Servers MUST include at least one of `inputRequests` or `requestState` in every `InputRequiredResult` response.",
          R5, Frame;
        McpR5CapabilityMissing = "mcp.r5.capability-missing", Must, "MCP basic/index §_meta › Per-request protocol fields",
          "If processing a request requires a capability the client did not include in `io.modelcontextprotocol/clientCapabilities`, the server MUST return a MissingRequiredClientCapabilityError (`-32021`) whose `data.requiredCapabilities` lists the missing capabilities.",
          R5, Unchecked("needs to know which capabilities the server needs for the request");
        McpR5ExplicitStateHandles = "mcp.r5.explicit-state-handles", Must, "MCP basic/index §Statelessness",
          "State that needs to span multiple requests (e.g., long-running tasks, application-level handles) MUST be referenced by an explicit identifier the client passes on each request.",
          R5, Unchecked("needs the server's internals: which state spans requests");
        McpR5SubscriptionsRequestedOnly = "mcp.r5.subscriptions.requested-only", MustNot, "MCP basic/patterns/subscriptions",
          "The server MUST NOT send notification types the client has not explicitly requested.",
          R5, Session;
        McpResourcesNotFoundEmpty = "mcp.resources.not-found-empty", MustNot, "MCP server/resources §Error Handling",
          "Servers MUST NOT return an empty `contents` array for a non-existent resource.",
          R5, Unchecked("needs to know that the resource does not exist, which only the server knows");
        McpR5MrtrRetryId = "mcp.r5.mrtr.retry-id", Must, "MCP basic/patterns/mrtr",
          "The JSON-RPC `id` MUST be different between the initial request and the retry, as they are independent requests.",
          R5, Session;
        McpR5LoggingPerRequest = "mcp.r5.logging.per-request", MustNot, "MCP server/utilities/logging §Per-request log level",
          "The server MUST NOT emit `notifications/message` for a request that does not include this field.",
          R5, Session;

        // ---- Closing the gap: sentences of conformance/spec/mapping.json -----
        McpR5SubscriptionIdNotifications = "mcp.r5.subscription-id-notifications", Must, "MCP basic/index §_meta",
          "On notifications delivered via a `subscriptions/listen` stream, the server MUST include `io.modelcontextprotocol/subscriptionId` in `_meta` so the client can correlate the notification with the originating subscription request. (Checked on the notifications that 2026-07-28 delivers only on such a stream: the list-changed notifications and `notifications/resources/updated`, server/tools, server/prompts, server/resources §List Changed Notification.)",
          R5, Frame;
        McpR5LoggingNotOnSubscription = "mcp.r5.logging.not-on-subscription", MustNot, "MCP server/utilities/logging §Per-request log level",
          "`notifications/message` is request-scoped: the server MUST NOT deliver it on a `subscriptions/listen` stream or on any stream other than the one carrying the response to the request that set the log level. (Checked on the frame: a `notifications/message` carrying `io.modelcontextprotocol/subscriptionId` says it travels on a subscription stream.)",
          R5, Frame;
        McpLoggingInvalidLevel = "mcp.logging.invalid-level", Should, "MCP server/utilities/logging §Error Handling",
          "Servers SHOULD return standard JSON-RPC errors for common failure cases: Invalid log level: `-32602` (Invalid params) (2026-07-28: \"If the `io.modelcontextprotocol/logLevel` value carried in a request's `_meta` is not a recognized log level, the server SHOULD reject that request with a standard JSON-RPC error: Invalid log level: `-32602` (Invalid params)\". Checked on the exchange: `logging/setLevel`'s `level`, or 2026-07-28's `_meta` log level, that is none of the schema's `LoggingLevel` values, answered with anything but -32602.)",
          MCP, Reply;
        McpR5CacheTtlNonNegative = "mcp.r5.cache.ttl-non-negative", Must, "MCP server/utilities/caching §Time-to-live (`ttlMs`) field",
          "Servers MUST provide a `ttlMs` value that is `>= 0`. (Schema: `ttlMs` has `minimum: 0`. Checked on any result carrying `ttlMs`.)",
          R5, Reply;
        McpR5MrtrInputRequestsDeclared = "mcp.r5.mrtr.input-requests-declared", MustNot, "MCP basic/patterns/mrtr §Server Requirements (Basic Workflow)",
          "Servers MUST NOT send an `inputRequests` that the client has not declared support for in its capabilities. For example, if a client does not declare support for `elicitation`, the server MUST NOT include any `elicitation/create` requests in the `inputRequests` field. (Checked against the answered request's `_meta` `io.modelcontextprotocol/clientCapabilities`: `roots/list` needs `roots`, `sampling/createMessage` `sampling` and, with `tools`, `sampling.tools` (client/sampling §Tools in Sampling), `elicitation/create` the mode's member, an empty `elicitation` counting as `form` (client/elicitation §Capabilities).)",
          R5, Reply;
        McpR5MrtrIncludeContextDeclared = "mcp.r5.mrtr.include-context-declared", ShouldNot, "MCP client/sampling §Capabilities",
          "The `includeContext` parameter values `\"thisServer\"` and `\"allServers\"` are soft-deprecated. Servers SHOULD avoid using these values (e.g. can just omit `includeContext` since it defaults to `\"none\"`), and SHOULD NOT use them unless the client declares `sampling.context` capability. (Checked on the `sampling/createMessage` input requests of an `InputRequiredResult`, against the answered request's `_meta` client capabilities.)",
          R5, Reply;
        McpR5SubscriptionAcknowledgedFirst = "mcp.r5.subscription.acknowledged-first", MustNot, "MCP basic/patterns/subscriptions §Acknowledgment",
          "The server MUST send `notifications/subscriptions/acknowledged` as the first message carrying the subscription's ID in `_meta` under `io.modelcontextprotocol/subscriptionId`, and MUST NOT send any notification on the subscription before it. (Checked by the session judge: a server notification carrying the id of a `subscriptions/listen` request in flight before that subscription's acknowledgment.)",
          R5, Session;
        McpCapabilitiesServerDeclares = "mcp.capabilities.server-declares", Must, "MCP server/tools §Capabilities; server/resources §Capabilities; server/prompts §Capabilities; server/utilities/completion §Capabilities",
          "Servers that support tools MUST declare the `tools` capability … Servers that support resources MUST declare the `resources` capability … Servers that support prompts MUST declare the `prompts` capability … Servers that support completions MUST declare the `completions` capability (Checked by the session judge: a server that answers a `tools/*`, `resources/*`, `prompts/*` or `completion/complete` request with a result supports the feature, so its `initialize` answer (2026-07-28: its `server/discover` answer, \"in their `DiscoverResult`\") must have declared it. `completions` arrives with 2025-03-26.)",
          MCP, Session;
        McpR5CapabilitiesDeclaredLists = "mcp.r5.capabilities.declared-lists", Must, "MCP server/tools §Capabilities; server/prompts §Capabilities; server/resources §Capabilities",
          "Servers that declare the `tools` capability MUST respond to `tools/list` requests with the set of tools currently available to the requesting client. (The same for `prompts` and `prompts/list`, `resources` and `resources/list`. Checked by the session judge: the list request answered -32601 (Method not found) after `server/discover` declared the capability.)",
          R5, Session;
        McpToolsEmbeddedResourcesCapability = "mcp.tools.embedded-resources-capability", Should, "MCP server/tools §Embedded Resources",
          "Servers that use embedded resources SHOULD implement the `resources` capability (Checked by the session judge: a `tools/call` result whose content holds a `resource` item, from a server whose `initialize` (or 2026-07-28 `server/discover`) answer declared no `resources`.)",
          R3_R5, Session;
        McpElicitationModeDeclared = "mcp.elicitation.mode-declared", MustNot, "MCP client/elicitation §Capabilities",
          "Servers MUST NOT send elicitation requests with modes that are not supported by the client. (Checked by the session judge against the client's `initialize` capabilities: `elicitation.url` for `mode: \"url\"`, `elicitation.form` or an empty `elicitation` otherwise. 2026-07-28: mcp.r5.mrtr.input-requests-declared.)",
          R4, Session;
        McpSamplingToolsDeclared = "mcp.sampling.tools-declared", MustNot, "MCP client/sampling §Tools in Sampling",
          "Servers MUST NOT send tool-enabled sampling requests to Clients that have not declared support for tool use via the `sampling.tools` capability. (Checked by the session judge against the client's `initialize` capabilities: a `sampling/createMessage` with `tools`. 2026-07-28: mcp.r5.mrtr.input-requests-declared.)",
          R4, Session;
        McpSamplingIncludeContextDeclared = "mcp.sampling.include-context-declared", ShouldNot, "MCP client/sampling §Capabilities",
          "The `includeContext` parameter values `\"thisServer\"` and `\"allServers\"` are soft-deprecated. Servers SHOULD avoid using these values (e.g. can just omit `includeContext` since it defaults to `\"none\"`), and SHOULD NOT use them unless the client declares `sampling.context` capability. (Checked by the session judge against the client's `initialize` capabilities. 2026-07-28: mcp.r5.mrtr.include-context-declared.)",
          R4, Session;
        // 2025-11-25 basic/utilities/tasks §Related Task Metadata (rules::tasks).
        McpTasksResultRelatedTask = "mcp.tasks.result-related-task", Must, "MCP basic/utilities/tasks §Related Task Metadata",
          "The `tasks/result` operation MUST include this metadata in its response, as the result structure itself does not contain the task ID. (\"this metadata\": the `io.modelcontextprotocol/related-task` key in `_meta`, \"with the value set to an object with a `taskId` matching the associated task ID\" (§Associating Task-Related Messages). Checked on the exchange: a `tasks/result` result without the key, or naming another task than the request's `taskId`; an error answer carries no `_meta` of the result and is not judged.)",
          R4, Reply;
        McpTasksRelatedTaskRedundant = "mcp.tasks.related-task-redundant", ShouldNot, "MCP basic/utilities/tasks §Related Task Metadata; §Associating Task-Related Messages; §Task Notifications",
          "For the `tasks/get`, `tasks/list`, and `tasks/cancel` operations, requestors and receivers SHOULD NOT include this metadata in their messages, as the `taskId` is already present in the message structure. … When sent, the `notifications/tasks/status` notification SHOULD NOT include the `io.modelcontextprotocol/related-task` metadata, as the task ID is already present in the notification parameters. (Checked per frame on those requests and that notification; their results are mcp.tasks.related-task-result-redundant.)",
          R4, Frame;
        McpTasksRelatedTaskResultRedundant = "mcp.tasks.related-task-result-redundant", ShouldNot, "MCP basic/utilities/tasks §Associating Task-Related Messages",
          "Similarly, for the `tasks/get`, `tasks/list`, and `tasks/cancel` operations, receivers SHOULD NOT include `io.modelcontextprotocol/related-task` metadata in the result messages, as the `taskId` is already present in the response structure. (Checked on the exchange: a result is only known to be one of theirs by the request it answers.)",
          R4, Reply;
        McpTasksTaskIdSourceOfTruth = "mcp.tasks.task-id-source-of-truth", Must, "MCP basic/utilities/tasks §Associating Task-Related Messages",
          "For the `tasks/get`, `tasks/result`, and `tasks/cancel` operations, the `taskId` parameter in the request MUST be used as the source of truth for identifying the target task. Requestors SHOULD NOT include `io.modelcontextprotocol/related-task` metadata in these requests, and receivers MUST ignore such metadata if present in favor of the RPC method parameter. (Checked on the exchange: a `tasks/get` or `tasks/cancel` result that is another task than the request's `taskId`; `tasks/result` names its task in `_meta`: mcp.tasks.result-related-task.)",
          R4, Reply;
        McpTasksCancelResultCancelled = "mcp.tasks.cancel-result-cancelled", Must, "MCP basic/utilities/tasks §Task Cancellation",
          "Upon receiving a valid cancellation request, receivers SHOULD attempt to stop the task execution and MUST transition the task to `cancelled` status before sending the response. (Checked on the exchange: a `tasks/cancel` answered with a result, so the request was valid, whose task `status` is not `cancelled`.)",
          R4, Reply;
        McpTasksFailedStatusMessage = "mcp.tasks.failed-status-message", Should, "MCP basic/utilities/tasks §Error Handling › Task Execution Errors",
          "The `tasks/get` response SHOULD include a `statusMessage` field with diagnostic information about the failure. (Said of a task that failed: checked on a `tasks/get` result whose `status` is `failed`.)",
          R4, Reply;

        // ---- MCP methods, params and results, from the schemas ----------------------
        McpMethodOtherRevision = "mcp.method.other-revision", ShouldNot, "MCP schema (method unions of each revision)",
          "A method the revision's schema does not define but another revision's does (`ping` or `logging/setLevel` in 2026-07-28, `server/discover` before it, `tasks/*` outside 2025-11-25). wirecheck's stance: SHOULD NOT, since an unknown method is answered -32601 and that is conformant, and a custom method may share the name.",
          MCP, Frame;
        McpMethodDirection = "mcp.method.direction", ShouldNot, "MCP schema (`ClientRequest`, `ServerRequest`, `ClientNotification`, `ServerNotification`)",
          "A method the revision defines only for the other side (a client sending `sampling/createMessage`, a server sending `tools/call`). Reported at SHOULD NOT for the reason given for mcp.method.other-revision.",
          MCP, Frame;
        McpSchemaRequestParams = "mcp.schema.request-params", Must, "MCP schema (the request and notification types)",
          "Schema: the members each method's `params` requires, and the JSON types the schema pins for each member. (MCP basic/index: \"All messages between MCP clients and servers MUST follow the JSON-RPC 2.0 specification\"; the schema is the normative definition of each message.)",
          MCP, Frame;
        McpSchemaResult = "mcp.schema.result", Must, "MCP schema (the result types)",
          "Schema: the members each method's result requires (e.g. `tools/list` → `tools`, `tools/call` → `content`, `resources/read` → `contents`, 2026-07-28 cacheable results → `ttlMs`, `cacheScope`), and the JSON types the schema pins (`isError` a boolean; `structuredContent` an object up to 2025-11-25).",
          MCP, Reply;
        McpToolsStructuredContentText = "mcp.tools.structured-content-text", Should, "MCP server/tools §Structured Content",
          "For backwards compatibility, a tool that returns structured content SHOULD also return the serialized JSON in a TextContent block.",
          R3_R5, Reply;
        McpToolsInputSchemaNotNull = "mcp.tools.input-schema-not-null", Must, "MCP server/tools §Data Types › Tool",
          "`inputSchema`: JSON Schema defining expected parameters … MUST be a valid JSON Schema object (not `null`)",
          R4_R5, Reply;
        McpToolsUnknownToolError = "mcp.tools.unknown-tool-error", Should, "MCP server/tools §Error Handling",
          "Tools use two error reporting mechanisms: Protocol Errors: Standard JSON-RPC errors for issues like: Unknown tools … Example protocol error: `{\"code\": -32602, \"message\": \"Unknown tool: invalid_tool_name\"}` (No keyword: the page names a JSON-RPC protocol error, -32602 in its example, for an unknown tool; a `tools/call` of a tool the server did not list, answered with a result (`isError` or not: a tool execution error is for a tool that ran) or another code, is reported at SHOULD, a warning, never a failure. Checked by the live runner, which alone knows the name `invalid_tool_name` is its own invention, on the golden vector `tools/y_call-unknown-tool` of each revision.)",
          MCP, Runner;
        McpToolsNameFormat = "mcp.tools.name-format", Should, "MCP server/tools §Tool Names",
          "Tool names SHOULD be between 1 and 128 characters in length (inclusive). … The following SHOULD be the only allowed characters: uppercase and lowercase ASCII letters (A-Z, a-z), digits (0-9), underscore (_), hyphen (-), and dot (.)",
          R4_R5, Reply;
        McpToolsNameUnique = "mcp.tools.name-unique", Should, "MCP server/tools §Tool Names",
          "Tool names SHOULD be unique within a server. (Checked within one `tools/list` result.)",
          R4_R5, Reply;
        McpToolsOutputSchemaConform = "mcp.tools.output-schema-conform", Must, "MCP server/tools §Output Schema",
          "If an output schema is provided: Servers MUST provide structured results that conform to this schema. (Checked by the session judge: a `tools/call` result, not `isError`, for a tool a `tools/list` answer gave an `outputSchema`, without `structuredContent` or with one that breaks the schema, judged with the `jsonschema` crate in the schema's `$schema` dialect, else 2020-12 from 2025-11-25 (basic/index §Schema Dialect); 2025-06-18 names no default, so there a breach counts only when draft-07 and 2020-12 both refuse the value. A schema that cannot be read (an unknown dialect, a `$ref` that does not resolve: nothing is fetched) leaves the call not observed, with the reason.)",
          R3_R5, Session;
        // Content a server returns (rules::content).
        McpContentBase64 = "mcp.content.base64", Must, "MCP server/prompts §Data Types › PromptMessage › Image Content, › Audio Content; server/resources §Security Considerations",
          "The image data MUST be base64-encoded and include a valid MIME type. … The audio data MUST be base64-encoded and include a valid MIME type. … Binary data MUST be properly encoded (Audio content arrives with 2025-03-26. Checked on the exchange, in a `prompts/get` result's messages, a `tools/call` result's content and a `resources/read` result's contents: `image` and `audio` `data` and resource `blob` values that are not RFC 4648 §4 base64 (padded, no line breaks: schema `format: byte`), and image or audio content whose `mimeType` is not `type/subtype`.)",
          MCP, Reply;
        McpContentEmbeddedResource = "mcp.content.embedded-resource", Must, "MCP server/prompts §Data Types › PromptMessage › Embedded Resources",
          "Resources can contain either text or binary (blob) data and MUST include: A valid resource URI; The appropriate MIME type; Either text content or base64-encoded blob data (Checked on the exchange, on the `resource` items of a `prompts/get` result's messages and a `tools/call` result's content: a URI without an RFC 3986 scheme, no `type/subtype` MIME type, or neither `text` nor `blob`; a blob that is not base64 is mcp.content.base64. The schema's `ResourceContents.mimeType` is optional: the text is held to, and the vectors that depart from the schema say so in conformance/baselines/schema-divergences.json.)",
          MCP, Reply;
        McpResourcesUriScheme = "mcp.resources.uri-scheme", Must, "MCP server/resources §Common URI Schemes › Custom URI Schemes",
          "Custom URI schemes MUST be in accordance with RFC3986, taking the above guidance in to account. (Checked on the exchange, as far as a URI shows it: a `resources/list` or `resources/read` resource URI without an RFC 3986 §3.1 scheme, `ALPHA *( ALPHA / DIGIT / \"+\" / \"-\" / \".\" )` before a colon. The sentence arrives with 2025-06-18.)",
          R3_R5, Reply;
        McpR5ToolsXMcpHeader = "mcp.r5.tools.x-mcp-header", Must, "MCP server/tools §x-mcp-header; basic/transports/streamable-http §Schema Extension",
          "Constraints on `x-mcp-header` values: MUST NOT be empty; MUST match HTTP field-name token syntax (`1*tchar`, RFC 9110 Section 5.1); MUST NOT contain control characters, including carriage return (CR, `\\r`) or line feed (LF, `\\n`); MUST be case-insensitively unique among all `x-mcp-header` values in the `inputSchema`; MUST only be applied to parameters with primitive types (integer, string, boolean). … MUST only be applied to properties that are _statically reachable_ from the schema root … The chain MUST NOT pass through `items` (or any other array keyword), composition keywords (`oneOf`, `anyOf`, `allOf`, `not`), conditional keywords (`if`/`then`/`else`), or `$ref`. (Checked on the exchange, on each tool of a `tools/list` result: the value, the property's `type` (one of the three, as a single string) and the chain of `properties` from the root. The integer range applies to each call's argument, not to the schema, and is not checked.)",
          R5, Reply;
        // What a server asks of the client (rules::server_requests).
        McpElicitationModeParams = "mcp.elicitation.mode-params", Must, "MCP client/elicitation §Protocol Messages › Elicitation Requests, › Form Mode Elicitation Requests, › URL Mode Elicitation Requests",
          "All elicitation requests MUST include the following parameters: … Form mode elicitation requests MUST either specify `mode: \"form\"` or omit the `mode` field, and include these additional parameters: `requestedSchema` … URL mode elicitation requests MUST specify `mode: \"url\"`, a `message`, and include these additional parameters: `url` … `elicitationId` … The `url` parameter MUST contain a valid URL. (Checked per frame on a server's `elicitation/create`, and on those a 2026-07-28 `InputRequiredResult` carries: the members of the mode, a `mode` that is neither, and a `url` without a scheme, `//` and a host. 2025-11-25's schema joins the two modes in one union and cannot say which members go together.)",
          R4_R5, Frame;
        McpSamplingToolResultsOnly = "mcp.sampling.tool-results-only", Must, "MCP client/sampling §Message Content Constraints › Tool Result Messages",
          "When a user message contains tool results (type: \"tool_result\"), it MUST contain ONLY tool results. (Checked per frame on the messages of a server's `sampling/createMessage`, and of those a 2026-07-28 `InputRequiredResult` carries. §Security Considerations 6 restates this and mcp.sampling.tool-use-balance for the server's reply to `stopReason: \"toolUse\"`; these two rules are its check.)",
          R4_R5, Frame;
        McpSamplingToolUseBalance = "mcp.sampling.tool-use-balance", Must, "MCP client/sampling §Message Content Constraints › Tool Use and Result Balance; schema `ToolResultContent.toolUseId`",
          "When using tool use in sampling, every assistant message containing `ToolUseContent` blocks MUST be followed by a user message that consists entirely of `ToolResultContent` blocks, with each tool use (e.g. with `id: $id`) matched by a corresponding tool result (with `toolUseId: $id`), before any other message. (Schema: `toolUseId` \"MUST match the ID from a previous ToolUseContent\". Checked per frame on the messages of a sampling request: the next message, its role, and the ids on both sides; a mixed user message is mcp.sampling.tool-results-only.)",
          R4_R5, Frame;
        McpR5SamplingMessageShape = "mcp.r5.sampling.message-shape", Must, "MCP client/sampling §Data Types › Messages",
          "Sampling messages MUST contain a `role` field of `\"user\"` or `\"assistant\"`; and a `content` field representing the message data. (Checked per frame on the `sampling/createMessage` input requests of an `InputRequiredResult`.)",
          R5, Frame;
        McpR5MrtrInputRequestType = "mcp.r5.mrtr.input-request-type", Must, "MCP basic/patterns/mrtr §Server Requirements (Basic Workflow)",
          "`inputRequests` values are request objects that MUST be one of `ElicitRequest`, `CreateMessageRequest`, or `ListRootsRequest` (Checked per frame on each value's `method`: `elicitation/create`, `sampling/createMessage` or `roots/list`.)",
          R5, Frame;
        McpRootsFileUri = "mcp.roots.file-uri", Must, "MCP client/roots §Data Types › Root",
          "`uri`: Unique identifier for the root. This MUST be a `file://` URI in the current specification. (Checked on the exchange: each root of a `roots/list` result. 2026-07-28 returns roots as an input response of a retried request, which no one frame ties to its input request: mcp.r5.roots.file-uri, by the session judge.)",
          R1_R4, Reply;
        McpR5ExtensionIdentifier = "mcp.r5.extensions.identifier", Must, "MCP basic/versioning §Extension Negotiation; schema `ClientCapabilities.extensions`, `ServerCapabilities.extensions`",
          "Extension identifiers MUST follow the `_meta` key naming rules, with a mandatory prefix. (Checked per frame on the keys of `extensions` in a client request's `_meta` client capabilities and in a result's `capabilities` (`DiscoverResult`): a prefix of dot-separated labels, a slash, a valid name.)",
          R5, Frame;
        McpCompletionMax100 = "mcp.completion.max-100", MustNot, "MCP schema `CompleteResult.completion.values`; server/utilities/completion §Data Types",
          "Schema: `\"maxItems\": 100` on `values` (\"An array of completion values. Must not exceed 100 items.\"), a constraint of the schema, which mcp.schema.result holds at MUST; the page: \"Maximum 100 items per response\". (Only 2026-07-28's schema has `maxItems`: earlier revisions are mcp.completion.max-100-r1.)",
          R5, Reply;
        McpCompletionMax100R1 = "mcp.completion.max-100-r1", May, "MCP server/utilities/completion §Completion Results; schema `CompleteResult`",
          "Servers return an array of completion values ranked by relevance, with: Maximum 100 items per response (No RFC 2119 keyword: the page states it without one, and the schema's description says \"Must not exceed 100 items.\" in lower case with no `maxItems`; keywords bind \"when, and only when, they appear in all capitals\" (index, BCP 14). Reported at MAY: a note beside a pass, a warning under `--strict`, never a failure.)",
          R1_R4, Reply;

        // ---- MCP `_meta` keys -------------------------------------------------------
        McpMetaPrefixFormat = "mcp.meta.prefix-format", Must, "MCP basic/index §General fields › `_meta`",
          "If specified, MUST be a series of labels separated by dots (`.`), followed by a slash (`/`). Labels MUST start with a letter and end with a letter or digit; interior characters can be letters, digits, or hyphens (`-`).",
          R3_R5, Frame;
        McpMetaNameFormat = "mcp.meta.name-format", Must, "MCP basic/index §General fields › `_meta`",
          "Unless empty, MUST begin and end with an alphanumeric character (`[a-z0-9A-Z]`). MAY contain hyphens (`-`), underscores (`_`), dots (`.`), and alphanumerics in between.",
          R3_R5, Frame;
        McpMetaReservedPrefixR3 = "mcp.meta.reserved-prefix-r3", ShouldNot, "MCP basic/index §General fields › `_meta`",
          "Any prefix beginning with zero or more valid labels, followed by `modelcontextprotocol` or `mcp`, followed by any valid label, is reserved for MCP use. (No keyword: a key under a reserved prefix that the revision does not define is reported at SHOULD NOT. `mcp/x` has no trailing label and is not reserved: ambiguity A12.)",
          R3, Frame;
        McpMetaReservedPrefixR4 = "mcp.meta.reserved-prefix-r4", ShouldNot, "MCP basic/index §General fields › `_meta`",
          "Any prefix where the second label is `modelcontextprotocol` or `mcp` is reserved for MCP use. (No keyword: a key under a reserved prefix that the revision does not define is reported at SHOULD NOT. A one-label prefix has no second label: ambiguity A12.)",
          R4_R5, Frame;
        McpMetaOtelException = "mcp.meta.otel-exception", Must, "MCP basic/index §General fields › `_meta` › OpenTelemetry trace context",
          "The keys `traceparent`, `tracestate`, and `baggage` are reserved for OpenTelemetry trace context propagation. When present, their values MUST follow W3C Trace Context and W3C Baggage formats respectively. (Checked: each is a string; `traceparent` has the version-traceid-parentid-flags shape.)",
          R5, Frame;

        // ---- Whole conversations: the session judge (harness::session) ----------
        // Rules the catalogue above lacked; a notification answered, progress,
        // cancellation and id reuse in MCP are the rows above.
        SessionResponseDuplicate = "session.response.duplicate", Must, "JSON-RPC 2.0 §5 | 2025-11-25: JSON-RPC 2.0 §5; MCP basic/index §Messages › Responses",
          "When a rpc call is made, the Server MUST reply with a Response, except for in the case of Notifications. (\"a Response\": one. MCP basic/index: \"Responses are sent in reply to requests\". wirecheck's stance: a second answer to an id already answered replies to no call and breaks this rule.)",
          ALL, Session;
        SessionResponseUnknownId = "session.response.unknown-id", Must, "JSON-RPC 2.0 §5",
          "id: This member is REQUIRED. It MUST be the same as the value of the id member in the Request Object. (An answer whose id no request of the other side ever carried echoes no request's id.)",
          ALL, Session;
        SessionIdReusedInflight = "session.id.reused-inflight", ShouldNot, "JSON-RPC 2.0 §6",
          "The Client SHOULD match contexts between the set of Request objects and the resulting set of Response objects based on the id member within each Object. (JSON-RPC 2.0 has no uniqueness rule; two requests in flight with one id cannot be told apart by their answers, so wirecheck reports the reuse at SHOULD NOT. MCP revisions forbid it outright: mcp.base.id-unique-session, mcp.base.id-unique-inflight.)",
          JSONRPC, Session;
        SessionBatchAnyOrder = "session.batch.any-order", May, "JSON-RPC 2.0 §6",
          "The Response objects being returned from a batch call MAY be returned in any order within the Array. The Client SHOULD match contexts between the set of Request objects and the resulting set of Response objects based on the id member within each Object. (Never a finding: the judge pairs every answer in a batch by id, so an answer out of order is conformant and one matching no request is session.response.unknown-id.)",
          BATCHES, Session;

        // ---- HTTP transports: the live runner's transport judge -----------------
        // Nothing in a frame shows HTTP, so no frame or conversation judge can
        // check these: `wirecheck run --http` (conformance/src/runner/http_judge.rs)
        // judges them from the HTTP exchanges and its own probes.
        McpHttpNotification202 = "mcp.http.notification-202", Must, "MCP basic/transports §Streamable HTTP › Sending Messages to the Server 4 | 2026-07-28: MCP basic/transports/streamable-http §Sending Messages 5",
          "If the input is a JSON-RPC _response_ or _notification_: If the server accepts the input, the server MUST return HTTP status code 202 Accepted with no body. If the server cannot accept the input, it MUST return an HTTP error status code (e.g., 400 Bad Request). The HTTP response body MAY comprise a JSON-RPC _error response_ that has no `id`.",
          R2_R5, Transport;
        McpHttpRequestContentType = "mcp.http.request-content-type", Must, "MCP basic/transports §Streamable HTTP › Sending Messages to the Server 5 | 2026-07-28: MCP basic/transports/streamable-http §Sending Messages 6",
          "If the input is a JSON-RPC _request_, the server MUST either return `Content-Type: text/event-stream`, to initiate an SSE stream, or `Content-Type: application/json`, to return one JSON object.",
          R2_R5, Transport;
        McpHttpSessionIdVisibleAscii = "mcp.http.session-id-visible-ascii", Must, "MCP basic/transports §Streamable HTTP › Session Management 1",
          "The session ID MUST only contain visible ASCII characters (ranging from 0x21 to 0x7E).",
          R2_R4, Transport;
        McpHttpSessionIdSecure = "mcp.http.session-id-secure", Should, "MCP basic/transports §Streamable HTTP › Session Management 1",
          "The session ID SHOULD be globally unique and cryptographically secure (e.g., a securely generated UUID, a JWT, or a cryptographic hash). (Checked as far as a client can: ids that are short, sequential, share a counter-like prefix or repeat across sessions are reported.)",
          R2_R4, Transport;
        McpHttpSessionRequired400 = "mcp.http.session-required-400", Should, "MCP basic/transports §Streamable HTTP › Session Management 2",
          "Servers that require a session ID SHOULD respond to requests without an `Mcp-Session-Id` header (other than initialization) with HTTP 400 Bad Request.",
          R2_R4, Transport;
        McpHttpSessionTerminated404 = "mcp.http.session-terminated-404", Must, "MCP basic/transports §Streamable HTTP › Session Management 3",
          "The server MAY terminate the session at any time, after which it MUST respond to requests containing that session ID with HTTP 404 Not Found. (Probed after the runner's DELETE of §Session Management 5; a 405 to the DELETE makes it not applicable. `wirecheck fuzz --stateful` ends sessions inside sequences and sends the ended id again.)",
          R2_R4, Transport;
        McpHttpProtocolVersion400 = "mcp.http.protocol-version-400", Must, "MCP basic/transports §Streamable HTTP › Protocol Version Header | 2026-07-28: MCP basic/transports/streamable-http §Protocol Version Header",
          "If the server receives a request with an invalid or unsupported `MCP-Protocol-Version`, it MUST respond with `400 Bad Request`. (2026-07-28: \"If the server does not implement the requested protocol version […], it MUST respond with `400 Bad Request` and an `UnsupportedProtocolVersionError`\".)",
          R3_R5, Transport;
        McpHttpOriginValidate = "mcp.http.origin-validate", Must, "MCP basic/transports §Streamable HTTP › Security Warning 1 | 2024-11-05: MCP 2025-03-26 basic/transports §Streamable HTTP › Security Warning 1",
          "Servers MUST validate the `Origin` header on all incoming connections to prevent DNS rebinding attacks. (Streamable HTTP; 2024-11-05 has no Streamable HTTP, so a 2024-11-05 session over it is held to the transport's first text, 2025-03-26. No status is named before 2025-11-25: a foreign `Origin` answered with any 4xx is refused, a 2xx is not. HTTP+SSE is mcp.http.sse-origin-validate.)",
          R1_R3, Transport;
        McpHttpSseOriginValidate = "mcp.http.sse-origin-validate", Must, "MCP 2024-11-05 basic/transports §HTTP with SSE › Security Warning 1",
          "When implementing HTTP with SSE transport: 1. Servers MUST validate the `Origin` header on all incoming connections to prevent DNS rebinding attacks. (The HTTP+SSE transport's own sentence, and its only one: from 2025-03-26 on the transport pages describe HTTP+SSE only under Backwards Compatibility, with no Origin sentence of their own, and no revision names a status for it; so over HTTP+SSE under any revision a foreign `Origin` answered with any 4xx is refused, a 2xx is not.)",
          MCP, Transport;
        McpHttpOrigin403 = "mcp.http.origin-403", Must, "MCP basic/transports §Streamable HTTP › Security Warning 1 | 2026-07-28: MCP basic/transports/streamable-http §Security Warning 1",
          "Servers MUST validate the `Origin` header on all incoming connections to prevent DNS rebinding attacks. If the `Origin` header is present and invalid, servers MUST respond with HTTP 403 Forbidden. The HTTP response body MAY comprise a JSON-RPC _error response_ that has no `id`.",
          R4_R5, Transport;
        McpHttpGetStreamOr405 = "mcp.http.get-stream-or-405", Must, "MCP basic/transports §Streamable HTTP › Listening for Messages from the Server 3",
          "The server MUST either return `Content-Type: text/event-stream` in response to this HTTP GET, or else return HTTP 405 Method Not Allowed, indicating that the server does not offer an SSE stream at this endpoint. (Probed with a GET carrying `Accept: text/event-stream` and the session id.)",
          R2_R4, Transport;
        McpHttpGetNoResponse = "mcp.http.get-no-response", MustNot, "MCP basic/transports §Streamable HTTP › Listening for Messages from the Server 4",
          "The server MUST NOT send a JSON-RPC _response_ on the stream **unless** resuming a stream associated with a previous client request. (Judged on a fresh GET stream, which resumes nothing; not applicable after a 405, not observed when the stream carried no message.)",
          R2_R4, Transport;
        McpHttpEventIdUnique = "mcp.http.event-id-unique", Must, "MCP basic/transports §Streamable HTTP › Resumability and Redelivery 1",
          "Servers MAY attach an `id` field to their SSE events […] If present, the ID MUST be globally unique across all streams within that session—or all streams with that specific client, if session management is not in use. (Judged over every SSE stream of each session, the POST answers and the GET stream; a replay's events keep their ids and are left out. Not observed when no event carried an id. The SSE parser carries an id forward to events without one, so only an id that changes counts, and a server repeating one id on consecutive events of one stream goes unseen.)",
          R2_R4, Transport;
        McpHttpReplaySameStream = "mcp.http.replay-same-stream", MustNot, "MCP basic/transports §Streamable HTTP › Resumability and Redelivery 2",
          "The server MAY use this header to replay messages that would have been sent after the last event ID, _on the stream that was disconnected_, and to resume the stream from that point. The server MUST NOT replay messages that would have been delivered on a different stream. (Probed by resuming the GET stream with `Last-Event-ID` set to its first event id, after the session POSTed a `ping` while the stream was read: a response, or a message delivered on one of the session's POST streams (that `ping`'s answer among them), is from a different stream. Not observed when the GET stream offered no event id or nothing was replayed.)",
          R2_R4, Transport;
        McpHttpGet405 = "mcp.http.get-405", Should, "MCP basic/transports/streamable-http §Backward Compatibility › Earlier Streamable HTTP Revisions",
          "A server that supports only this revision and receives such traffic from an older client SHOULD respond as follows: HTTP GET or DELETE to the MCP endpoint: respond with `405 Method Not Allowed`. […] A `Last-Event-ID` header: ignore it; streams are not resumable. (Probed with a GET carrying `Accept: text/event-stream`.)",
          R5, Transport;
        McpHttpHeaderBodyMatch = "mcp.http.header-body-match", Must, "MCP basic/transports/streamable-http §Server Validation",
          "Servers that process the request body MUST reject requests where the values specified in the headers do not match the corresponding values in the request body. (Probed with a `server/discover` whose `Mcp-Method` header names `tools/list`: a 2xx answer accepted the mismatch.)",
          R5, Transport;
        McpHttpHeaderMismatch400 = "mcp.http.header-mismatch-400", Must, "MCP basic/transports/streamable-http §Server Validation",
          "When rejecting a request due to header validation failure, servers MUST return HTTP status `400 Bad Request` and MUST include a JSON-RPC error response using the following error code: `-32020` HeaderMismatch. (Judged on the refusal of the same probe; not applicable when it was accepted.)",
          R5, Transport;
        McpHttpSseMessageEvent = "mcp.http.sse-message-event", Must, "MCP basic/transports §HTTP with SSE",
          "When a client connects, the server MUST send an `endpoint` event containing a URI for the client to use for sending messages. […] Server messages are sent as SSE `message` events, with the message content encoded as JSON in the event data.",
          R1, Transport;
        McpHttpSseStreamAnswers = "mcp.http.sse-stream-answers", Should, "MCP basic/transports §Streamable HTTP › Sending Messages to the Server 6",
          "If the server initiates an SSE stream: The SSE stream SHOULD eventually include JSON-RPC _response_ for the JSON-RPC _request_ sent in the POST body […] The server SHOULD NOT close the SSE stream before sending the JSON-RPC _response_ for the received JSON-RPC _request_, unless the session expires. (2025-06-18; 2025-03-26 says \"one JSON-RPC _response_ per each JSON-RPC _request_ sent in the POST body\". Judged on every request POSTed in the run's sessions and answered with `text/event-stream`: a stream that ended with no response breaks both; a batch with some answers missing is the session judge's. Not observed when no request was answered on a stream. From 2025-11-25 a server may close the connection without ending the stream, so those revisions are not held to it.)",
          R2.with(R3), Transport;
        // 2026-07-28 probes of the header–body validation and the status
        // codes of basic/transports/streamable-http; each is a request no
        // server acts on (`server/discover`, an unknown method, an unknown tool).
        McpHttpVersionHeaderMismatch400 = "mcp.http.version-header-mismatch-400", Must, "MCP basic/transports/streamable-http §Protocol Version Header",
          "The header value MUST match the `io.modelcontextprotocol/protocolVersion` field carried in the request body's `_meta`. If the values do not match, the server MUST reject the request with `400 Bad Request` and a `HeaderMismatch` JSON-RPC error (see Server Validation). (Probed with a `server/discover` whose `_meta` names 2026-07-28 and whose header names 2025-11-25: a 2xx accepted the mismatch. A 400 with `UnsupportedProtocolVersionError` -32022 also passes, noted: the next sentence requires it for a version the server does not implement and the page orders neither check.)",
          R5, Transport;
        McpHttpMethodNotFound404 = "mcp.http.method-not-found-404", Must, "MCP basic/transports/streamable-http §Protocol Version Header",
          "If the server does not implement the requested RPC method, it MUST respond with `404 Not Found` and a JSON-RPC error with code `-32601` (`Method not found`). (Probed with a request for `wirecheck/no-such-method`, its `Mcp-Method` header matching the body.)",
          R5, Transport;
        McpHttpNameHeaderDecoded = "mcp.http.name-header-decoded", Must, "MCP basic/transports/streamable-http §Value Encoding | §Server Validation",
          "In particular, servers MUST decode an encoded `Mcp-Name` or `Mcp-Param-{Name}` value before comparing it to the corresponding request body value during Server Validation. (Probed with a `tools/call` of a tool no server has, `wirecheck-no-such-tool`, its `Mcp-Name` the sentinel `=?base64?…?=` of that name: a refusal with -32020 HeaderMismatch compared the encoded value. Not applicable when the server answers 404 -32601: it has no `tools/call`.)",
          R5, Transport;
        McpHttpSseNoBuffering = "mcp.http.sse-no-buffering", Should, "MCP basic/transports/streamable-http §Receiving Messages",
          "When initiating an SSE stream, servers SHOULD include the `X-Accel-Buffering: no` header in the HTTP response. (Judged on every POST answered with `text/event-stream`; not observed when none was.)",
          R5, Transport;
        JsonRpcHttpNullBody = "jsonrpc.http.null-body", MustNot, "JSON-RPC 2.0 §4.1",
          "The Server MUST NOT reply to a Notification, including those that are within a batch request. (Over HTTP the body is the reply: a body of `null` answers the notification with a JSON value that is no Response object; 204 or an empty 200 is silence.)",
          JSONRPC, Transport;
        JsonRpcHttpEmptyArrayBody = "jsonrpc.http.empty-array-body", MustNot, "JSON-RPC 2.0 §6",
          "If there are no Response objects contained within the Response array as it is to be sent to the client, the server MUST NOT return an empty Array and should return nothing at all.",
          JSONRPC, Transport;
        // Authorization: the server as an OAuth resource server,
        // probed by `wirecheck run --http URL --auth` with tokens from
        // wirecheck's own authorization server (conformance/src/auth/,
        // conformance/src/runner/http_judge/authorization.rs). Only a
        // server `--auth` names as protected is probed; every token probe
        // is not observed unless the server accepted wirecheck's valid token
        // (a server refusing everything shows nothing).
        McpAuthUnauthenticated401 = "mcp.auth.unauthenticated-401", Must, "MCP basic/authorization §Error Handling | 2025-03-26: MCP basic/authorization §Authorization Flow › Example: authorization code grant | 2026-07-28: MCP basic/authorization/index §Error Handling",
          "Servers MUST return appropriate HTTP status codes for authorization errors: […] 401 Unauthorized: Authorization required or token invalid. (2025-03-26: \"When authorization is required and not yet proven by the client, servers MUST respond with _HTTP 401 Unauthorized_.\") (Probed with a session's first request and no `Authorization` header.)",
          R2_R5, Transport;
        McpAuthChallengeResourceMetadata = "mcp.auth.challenge-resource-metadata", Must, "MCP basic/authorization §Authorization Flow › Authorization Server Discovery › Authorization Server Location",
          "MCP servers MUST use the HTTP header `WWW-Authenticate` when returning a _401 Unauthorized_ to indicate the location of the resource server metadata URL as described in RFC9728 Section 5.1 \"WWW-Authenticate Response\". (Judged on the 401 to a request without a token: a `Bearer` challenge with a `resource_metadata` parameter. From 2025-11-25 the header is one of two discovery mechanisms, mcp.auth.prm-served.)",
          R3, Transport;
        McpAuthPrmServed = "mcp.auth.prm-served", Must, "MCP basic/authorization §Authorization Server Discovery › Protected Resource Metadata Discovery Requirements | 2025-06-18: MCP basic/authorization §Authorization Flow › Authorization Server Discovery › Authorization Server Location | 2026-07-28: MCP basic/authorization/authorization-server-discovery §Protected Resource Metadata Discovery Requirements",
          "MCP servers MUST implement one of the following discovery mechanisms to provide authorization server location information to MCP clients: 1. WWW-Authenticate Header: Include the resource metadata URL in the `WWW-Authenticate` HTTP header under `resource_metadata` when returning `401 Unauthorized` responses […] 2. Well-Known URI: Serve metadata at a well-known URI as specified in RFC9728. (2025-06-18: \"MCP servers MUST implement the OAuth 2.0 Protected Resource Metadata (RFC9728) specification to indicate the locations of authorization servers.\") (A JSON object answered 2xx at the 401's `resource_metadata` URL or at either well-known URI, path form `/.well-known/oauth-protected-resource/<path>` or root; either passes.)",
          R3_R5, Transport;
        McpAuthPrmAuthorizationServers = "mcp.auth.prm-authorization-servers", Must, "MCP basic/authorization §Authorization Server Discovery › Authorization Server Location | 2025-06-18: MCP basic/authorization §Authorization Flow › Authorization Server Discovery › Authorization Server Location | 2026-07-28: MCP basic/authorization/authorization-server-discovery §Authorization Server Location",
          "The Protected Resource Metadata document returned by the MCP server MUST include the `authorization_servers` field containing at least one authorization server. (Judged on the document mcp.auth.prm-served found; not observed without one.)",
          R3_R5, Transport;
        McpAuthPrmResource = "mcp.auth.prm-resource", Must, "MCP basic/authorization §Authorization Server Discovery › Authorization Server Location; RFC 9728 §3.3 | 2025-06-18: MCP basic/authorization §Authorization Flow › Authorization Server Discovery › Authorization Server Location; RFC 9728 §3.3 | 2026-07-28: MCP basic/authorization/authorization-server-discovery §Authorization Server Location; RFC 9728 §3.3",
          "MCP servers MUST implement the OAuth 2.0 Protected Resource Metadata (RFC9728) specification […] RFC 9728 §3.3: \"The `resource` value returned MUST be identical to the protected resource's resource identifier value into which the well-known URI path suffix was inserted to create the URL used to retrieve the metadata.\" (The document's `resource` against the URL under test, its canonical URI, scheme and host compared without case and a trailing slash ignored as basic/authorization §Canonical Server URI allows; a document found at the root well-known URI may also name the origin, the identifier that URI was made from. Not observed without a document.)",
          R3_R5, Transport;
        McpAuthTokenExpired401 = "mcp.auth.token-expired-401", Must, "MCP basic/authorization §Access Token Usage › Token Handling | 2026-07-28: MCP basic/authorization/index §Access Token Usage › Token Handling",
          "Invalid or expired tokens MUST receive a HTTP 401 response. (Probed with a token of the trusted issuer, right in every other claim, whose `exp` passed an hour ago: accepting it, or any status but 401, breaks it.)",
          R2_R5, Transport;
        McpAuthTokenSignature401 = "mcp.auth.token-signature-401", Must, "MCP basic/authorization §Access Token Usage › Token Handling | 2026-07-28: MCP basic/authorization/index §Access Token Usage › Token Handling",
          "Resource servers MUST validate access tokens as described in Section 5.2. […] Invalid or expired tokens MUST receive a HTTP 401 response. (2025-06-18 on: \"MCP servers, acting in their role as an OAuth 2.1 resource server, MUST validate access tokens as described in OAuth 2.1 Section 5.2.\") (Probed with a token right in every claim but signed with a key the issuer never published, under the published key's `kid`: a token whose signature does not verify is invalid.)",
          R2_R5, Transport;
        McpAuthTokenIssuer401 = "mcp.auth.token-issuer-401", Must, "MCP basic/authorization §Access Token Usage › Token Handling; RFC 9068 §4 | 2026-07-28: MCP basic/authorization/index §Access Token Usage › Token Handling; RFC 9068 §4",
          "Invalid or expired tokens MUST receive a HTTP 401 response. (2025-06-18 on, the same section: \"MCP servers MUST NOT accept or transit any other tokens.\"; 2025-11-25 on: \"MCP servers MUST only accept tokens that are valid for use with their own resources.\") RFC 9068 §4, validating a JWT access token such as wirecheck mints (`typ: at+jwt`): \"The issuer identifier for the authorization server (which is typically obtained during discovery) MUST exactly match the value of the iss claim.\" (Probed with a token signed by the trusted issuer's published key whose `iss` names another issuer: not a token of the server's authorization server.)",
          R2_R5, Transport;
        McpAuthTokenAudience401 = "mcp.auth.token-audience-401", Must, "MCP basic/authorization §Access Token Usage › Token Handling | 2026-07-28: MCP basic/authorization/index §Access Token Usage › Token Handling",
          "MCP servers MUST validate that access tokens were issued specifically for them as the intended audience, according to RFC 8707 Section 2. If validation fails, servers MUST respond according to OAuth 2.1 Section 5.3 error handling requirements. Invalid or expired tokens MUST receive a HTTP 401 response. (Probed with a token right in every claim but `aud`, which names another resource.)",
          R3_R5, Transport;
        McpAuthTokenAudienceMissing401 = "mcp.auth.token-audience-missing-401", Must, "MCP basic/authorization §Security Considerations › Access Token Privilege Restriction | 2026-07-28: MCP basic/authorization/security-considerations §Access Token Privilege Restriction",
          "MCP servers MUST only accept tokens specifically intended for themselves and MUST reject tokens that do not include them in the audience claim or otherwise verify that they are the intended recipient of the token. (Probed with a token right in every claim but with no `aud`; refused with 401 as basic/authorization §Token Handling says of an invalid token.)",
          R3_R5, Transport;
        McpAuthInvalidTokenChallenge = "mcp.auth.invalid-token-challenge", Must, "MCP basic/authorization §Access Token Usage › Token Handling | 2026-07-28: MCP basic/authorization/index §Access Token Usage › Token Handling",
          "If validation fails, servers MUST respond according to OAuth 2.1 Section 5.3 error handling requirements. (2025-03-26: \"…according to Section 5.3 error handling requirements\".) (OAuth 2.1 §5.3 is the bearer error response of RFC 6750 §3, whose MUST is that a refusal for want of a usable token includes the `WWW-Authenticate` response header: judged on every 401 the token probes got, each must carry a `Bearer` challenge; not observed when none was answered 401.)",
          R2_R5, Transport;
        McpAuthInvalidTokenError = "mcp.auth.invalid-token-error", Should, "MCP basic/authorization §Access Token Usage › Token Handling; OAuth 2.1 §5.3.1 | 2026-07-28: MCP basic/authorization/index §Access Token Usage › Token Handling; OAuth 2.1 §5.3.1",
          "If validation fails, servers MUST respond according to OAuth 2.1 Section 5.3 error handling requirements. OAuth 2.1 §5.3.1 (draft-ietf-oauth-v2-1-12, linked by 2025-03-26; -13 from 2025-06-18, the same words), the `error` attribute of the `WWW-Authenticate` challenge: \"If the protected resource request included an access token and failed authentication, the resource server SHOULD include the `error` attribute to provide the client with the reason why the access request was declined.\" (§5.3.2 names the code for this case: \"invalid_token: The access token provided is expired, revoked, malformed, or invalid for other reasons.\") (Judged on every 401 carrying a `Bearer` challenge that a bad token of the token probes got: each challenge must name an `error`. Its value is noted, not judged: \"Extensions may define additional error codes\". A 401 without a challenge is mcp.auth.invalid-token-challenge's. Not observed when no bad token got a 401 with a `Bearer` challenge.)",
          R2_R5, Transport;
        McpAuthNoTokenNoError = "mcp.auth.no-token-no-error", ShouldNot, "MCP basic/authorization §Access Token Usage › Token Handling; OAuth 2.1 §5.3.2 | 2026-07-28: MCP basic/authorization/index §Access Token Usage › Token Handling; OAuth 2.1 §5.3.2",
          "If validation fails, servers MUST respond according to OAuth 2.1 Section 5.3 error handling requirements. OAuth 2.1 §5.3.2 (draft-ietf-oauth-v2-1-12, linked by 2025-03-26; -13 from 2025-06-18, the same words): \"If the request lacks any authentication information (e.g., the client was unaware that authentication is necessary or attempted using an unsupported authentication method), the resource server SHOULD NOT include an error code or other error information.\" (The MCP sentence sends a failed token check to §5.3, whose §5.3.2 itself names the request that carried no token; read so, at its own SHOULD NOT. Judged on the `Bearer` challenge of the 401 to the opening request sent without `Authorization`: an `error`, `error_description` or `error_uri` attribute breaks it. Not applicable when that request got no 401 with a `Bearer` challenge.)",
          R2_R5, Transport;
        McpAuthChallengeScope = "mcp.auth.challenge-scope", Should, "MCP basic/authorization §Authorization Server Discovery › Protected Resource Metadata Discovery Requirements | 2026-07-28: MCP basic/authorization/index §Scope Selection Strategy",
          "MCP servers SHOULD include a `scope` parameter in the `WWW-Authenticate` header as defined in RFC 6750 Section 3 to indicate the scopes required for accessing the resource. (Judged on the 401 to a request without a token: its `Bearer` challenge names a `scope`; not applicable without a 401 carrying a `Bearer` challenge.)",
          R4_R5, Transport;
        McpAuthInsufficientScope403 = "mcp.auth.insufficient-scope-403", Must, "MCP basic/authorization §Error Handling | 2026-07-28: MCP basic/authorization/index §Error Handling",
          "Servers MUST return appropriate HTTP status codes for authorization errors: […] 403 Forbidden: Invalid scopes or insufficient permissions. (Probed with a valid token whose only scope is none the server named in its Protected Resource Metadata `scopes_supported` or its 401's `scope`; not applicable when it named none, or accepted the token: it then needs no scope for this request.)",
          R2_R5, Transport;
        McpAuthInsufficientScopeChallenge = "mcp.auth.insufficient-scope-challenge", Should, "MCP basic/authorization §Scope Challenge Handling › Runtime Insufficient Scope Errors | 2026-07-28: MCP basic/authorization/index §Error Handling › Scope Challenge Handling › Runtime Insufficient Scope Errors",
          "When a client makes a request with an access token with insufficient scope during runtime operations, the server SHOULD respond with: `HTTP 403 Forbidden` status code […] `WWW-Authenticate` header with the `Bearer` scheme and additional parameters: `error=\"insufficient_scope\"` […] (Judged on the 403 of mcp.auth.insufficient-scope-403's probe; not applicable without one.)",
          R4_R5, Transport;
        McpAuthInsufficientScopeNamesScope = "mcp.auth.insufficient-scope-names-scope", Should, "MCP basic/authorization §Scope Challenge Handling › Runtime Insufficient Scope Errors | 2026-07-28: MCP basic/authorization/index §Error Handling › Scope Challenge Handling › Runtime Insufficient Scope Errors",
          "Server Scope Management: When responding with insufficient scope errors, servers SHOULD include the scopes needed to satisfy the current request in the `scope` parameter. (2026-07-28: \"…the scopes needed to satisfy the current operation in the `scope` parameter, consistent with RFC 6750 Section 3.1.\") (Judged on the 403 of mcp.auth.insufficient-scope-403's probe, whose token holds only the scope `wirecheck:insufficient`: its `Bearer` challenge's `scope` must name some other scope, one the token lacks. Whether the named scopes suffice is probed under 2026-07-28 only, by mcp.auth.insufficient-scope-single-challenge. Not applicable without a 403.)",
          R4_R5, Transport;
        McpAuthNoOfflineAccessScope = "mcp.auth.no-offline-access-scope", ShouldNot, "MCP basic/authorization/index §Refresh Tokens",
          "MCP Servers (Protected Resources) SHOULD NOT include `offline_access` in `WWW-Authenticate` scope or Protected Resource Metadata `scopes_supported`, as refresh tokens are not a resource requirement. (Judged on the `scope` of the 401 to a request without a token and of the 403 to mcp.auth.insufficient-scope-403's token, and on the Protected Resource Metadata's `scopes_supported`: none may name `offline_access`. Not observed when the server showed none of them.)",
          R5, Transport;
        McpAuthInsufficientScopeSingleChallenge = "mcp.auth.insufficient-scope-single-challenge", Should, "MCP basic/authorization/index §Error Handling › Scope Challenge Handling › Runtime Insufficient Scope Errors",
          "Whatever scope-inclusion strategy a server adopts, servers SHOULD include all scopes required for the current operation in a single challenge. (Probed after mcp.auth.insufficient-scope-403's 403: the same request again with a valid token holding every scope that 403's `scope` named beside the one the refused token held, as a client accumulating scopes would; refused with 403 again, the first challenge did not name all the request needed. Not applicable without a 403 naming a scope; not observed when the retry got neither a 2xx nor a 403.)",
          R5, Transport;
        // 2025-03-26: the MCP server as its own authorization server (its
        // metadata at the authorization base URL, else the default
        // endpoints), probed from outside with requests that can authorize,
        // issue or register nothing (runner/http_judge/authorization/own_server.rs).
        McpAuthAsMetadataServed = "mcp.auth.as-metadata-served", Should, "MCP basic/authorization §Authorization Flow › Overview | §Authorization Flow › Server Metadata Discovery",
          "MCP servers SHOULD and MCP clients MUST implement OAuth 2.0 Authorization Server Metadata (RFC8414). (§Server Metadata Discovery: \"MCP server _SHOULD_ follow the OAuth 2.0 Authorization Server Metadata protocol.\") (Probed with GETs carrying `MCP-Protocol-Version: 2025-03-26` (§Server Metadata Discovery Headers) of `/.well-known/oauth-authorization-server` at the authorization base URL, the server's URL without its path, then at RFC 8414 §3.1's path-inserted form `/.well-known/oauth-authorization-server/<path>`: a JSON object answered 2xx at either passes; at neither, a warning, and the server is held to the default endpoints, mcp.auth.default-endpoints. Not applicable when the opening request is answered without a token; not observed when no GET got an answer.)",
          R2, Transport;
        McpAuthAsMetadataRoot = "mcp.auth.as-metadata-root", Must, "MCP basic/authorization §Authorization Flow › Server Metadata Discovery › Authorization Base URL",
          "The authorization base URL MUST be determined from the MCP server URL by discarding any existing `path` component. […] If the MCP server URL is `https://api.example.com/v1/mcp`, then: The authorization base URL is `https://api.example.com`; The metadata endpoint MUST be at `https://api.example.com/.well-known/oauth-authorization-server` (Judged when mcp.auth.as-metadata-served found a document: it must be the one at the authorization base URL; a document served only at the path-inserted form breaks it. Not applicable when no document was found: the server then does not support the metadata, which is mcp.auth.as-metadata-served's warning.)",
          R2, Transport;
        McpAuthAsMetadataFields = "mcp.auth.as-metadata-fields", Should, "MCP basic/authorization §Authorization Flow › Overview; RFC 8414 §2",
          "MCP servers SHOULD and MCP clients MUST implement OAuth 2.0 Authorization Server Metadata (RFC8414). RFC 8414 §2 marks REQUIRED: `issuer`; `authorization_endpoint` (\"This is REQUIRED unless no grant types are supported that use the authorization endpoint.\"); `token_endpoint` (\"This is REQUIRED unless only the implicit grant type is supported.\"); `response_types_supported`. (Judged on the document mcp.auth.as-metadata-served found: `issuer` and the two endpoints strings, the endpoints as `grant_types_supported` (default `authorization_code` and `implicit`) needs them, `response_types_supported` an array. The level is ambiguous and the weaker is reported: RFC 8414 calls the members REQUIRED, but MCP asks a server to implement RFC 8414 at SHOULD only and does not say whether a document served yet incomplete breaks a MUST. `issuer` is not compared with the base URL, though RFC 8414 §3.3 asks them identical: this revision lets the authorization server \"be deployed as its own distinct service\" yet puts its metadata at the MCP server's base URL, so either answer passes. Not applicable without a document.)",
          R2, Transport;
        McpAuthDefaultEndpoints = "mcp.auth.default-endpoints", Must, "MCP basic/authorization §Authorization Flow › Overview | §Authorization Flow › Server Metadata Discovery › Fallbacks for Servers without Metadata Discovery",
          "Servers that do not support Authorization Server Metadata MUST follow the default URI schema. (§Server Metadata Discovery: \"MCP servers that do not support the OAuth 2.0 Authorization Server Metadata protocol, _MUST_ support fallback URLs.\"; §Fallbacks for Servers without Metadata Discovery: Authorization Endpoint `/authorize`, Token Endpoint `/token`, relative to the authorization base URL; \"When using default paths, all other protocol requirements remain unchanged.\") (Judged when mcp.auth.as-metadata-served found no document: a GET of `/authorize` without parameters answered 404 or 405 shows no authorization endpoint there (one answers an incomplete request with an error page or a redirect, OAuth 2.1 §4.1.2.1); a POST of an empty form to `/token` must get OAuth 2.1 §3.2.4's error response, 400 or 401 with a JSON object holding a string `error`. Not observed when an answer shows neither (a 5xx; a 401 at `/authorize`); not applicable when a document was found. `/register` is mcp.auth.dynamic-registration's: registration is a SHOULD.)",
          R2, Transport;
        McpAuthDynamicRegistration = "mcp.auth.dynamic-registration", Should, "MCP basic/authorization §Authorization Flow › Overview | §Authorization Flow › Dynamic Client Registration",
          "MCP auth implementations SHOULD support the OAuth 2.0 Dynamic Client Registration Protocol (RFC7591). (§Dynamic Client Registration: \"MCP clients and servers SHOULD support the OAuth 2.0 Dynamic Client Registration Protocol to allow MCP clients to obtain OAuth client IDs without user interaction.\") (Probed at the metadata's `registration_endpoint`, or at `/register` of the authorization base URL when no metadata was found, with a POST of client metadata RFC 7591 §2 makes invalid (`redirect_uris` a string, not an array), so that no client is registered: RFC 7591 §3.2.2's error response, 400 with a JSON object holding a string `error`, passes, as does a 2xx registering the client after all (`client_id`). Metadata naming no `registration_endpoint`, or another answer (404), is a warning. Not observed when the endpoint asks for an initial access token (401 or 403, RFC 7591 §3 allows it), answers 5xx, or is at a host wirecheck does not contact.)",
          R2, Transport;
        // Authorization, the client side: the client's OAuth flow
        // as `serve --http --judge --auth` sees it, the reference peer a
        // protected resource and wirecheck's authorization server the one it
        // is sent to, both recording every request (conformance/src/auth/
        // observed.rs, judged in conformance/src/auth/client_judge.rs).
        McpAuthClientPkce = "mcp.auth.client-pkce", Must, "MCP basic/authorization §Security Considerations › Authorization Code Protection | 2025-03-26: MCP basic/authorization §Implementation Requirements | 2026-07-28: MCP basic/authorization/security-considerations §Authorization Code Protection",
          "To mitigate this, MCP clients MUST implement PKCE according to OAuth 2.1 Section 7.5.2 (2025-03-26: \"PKCE is REQUIRED for all clients\") (Judged on every authorization request, which must carry a `code_challenge`, and every token request redeeming a code, which must carry the `code_verifier` of that code's challenge. Not observed when the client sent neither.)",
          R2_R5, Transport;
        McpAuthClientPkceS256 = "mcp.auth.client-pkce-s256", Must, "MCP basic/authorization §Security Considerations › Authorization Code Protection | 2026-07-28: MCP basic/authorization/security-considerations §Authorization Code Protection",
          "MCP clients MUST use the `S256` code challenge method when technically capable, as required by OAuth 2.1 Section 4.1.1. (Judged on every authorization request carrying a `code_challenge`: its `code_challenge_method` must be `S256`; absent, it is `plain` (RFC 7636 §4.3). Not observed when none carried a challenge.)",
          R4_R5, Transport;
        McpAuthClientPkceRefuse = "mcp.auth.client-pkce-refuse", Must, "MCP basic/authorization §Security Considerations › Authorization Code Protection | 2026-07-28: MCP basic/authorization/security-considerations §Authorization Code Protection",
          "Since OAuth 2.1 and PKCE specifications do not define a mechanism for clients to discover PKCE support, MCP clients MUST rely on authorization server metadata to verify this capability: OAuth 2.0 Authorization Server Metadata: If `code_challenge_methods_supported` is absent, the authorization server does not support PKCE and MCP clients MUST refuse to proceed. (Judged under `--auth-scenario no-pkce-metadata` only, whose authorization server metadata leaves the member out: an authorization or token request after the client fetched it breaks it. Not applicable otherwise; not observed when the client never fetched the metadata.)",
          R4_R5, Transport;
        McpAuthClientIss = "mcp.auth.client-iss", Must, "MCP basic/authorization/index §Authorization Flow Steps › Authorization Response Validation",
          "On receiving the authorization response, MCP clients MUST apply the validation in RFC9207 Section 2.4 before transmitting the authorization code to any token endpoint: […] `authorization_response_iss_parameter_supported` `true`, `iss` present: Compare to the recorded issuer using simple string comparison (Judged under `--auth-scenario wrong-iss` only, whose authorization server advertises the parameter and redirects with `iss` naming another issuer: a token request after such a response transmitted its code unvalidated. Not applicable otherwise; not observed when the client sent no authorization request.)",
          R5, Transport;
        McpAuthClientResource = "mcp.auth.client-resource", Must, "MCP basic/authorization §Resource Parameter Implementation | 2025-06-18: MCP basic/authorization §Authorization Flow Steps › Resource Parameter Implementation | 2026-07-28: MCP basic/authorization/index §Resource Parameter Implementation",
          "MCP clients MUST implement Resource Indicators for OAuth 2.0 as defined in RFC 8707 to explicitly specify the target resource for which the token is being requested. The `resource` parameter: 1. MUST be included in both authorization requests and token requests. (Judged on every authorization and token request. Not observed when the client sent neither.)",
          R3_R5, Transport;
        McpAuthClientResourceCanonical = "mcp.auth.client-resource-canonical", Must, "MCP basic/authorization §Resource Parameter Implementation | 2025-06-18: MCP basic/authorization §Authorization Flow Steps › Resource Parameter Implementation | 2026-07-28: MCP basic/authorization/index §Resource Parameter Implementation",
          "2. MUST identify the MCP server that the client intends to use the token with. 3. MUST use the canonical URI of the MCP server as defined in RFC 8707 Section 2. (Judged on every `resource` the client sent: the judged peer's URL, `http://IP:PORT/mcp`, scheme and host compared without case and a trailing slash ignored, as §Canonical Server URI allows. Not observed when it sent none.)",
          R3_R5, Transport;
        McpAuthClientBearer = "mcp.auth.client-bearer", Must, "MCP basic/authorization §Access Token Usage › Token Requirements | 2026-07-28: MCP basic/authorization/index §Access Token Usage › Token Requirements",
          "MCP client MUST use the Authorization request header field defined in OAuth 2.1 Section 5.1.1: `Authorization: Bearer <access-token>` Note that authorization MUST be included in every HTTP request from client to server, even if they are part of the same logical session. (2026-07-28 ends the note at \"server.\") (Judged on every request to the MCP endpoint after the authorization server first issued the client a token: each must carry `Authorization: Bearer` and a token. Not observed when no token was issued or no request followed.)",
          R2_R5, Transport;
        McpAuthClientTokenNotInQuery = "mcp.auth.client-token-not-in-query", MustNot, "MCP basic/authorization §Access Token Usage › Token Requirements | 2026-07-28: MCP basic/authorization/index §Access Token Usage › Token Requirements",
          "Access tokens MUST NOT be included in the URI query string (Judged on every request to the MCP server after the first token was issued: its query must hold no token the authorization server issued and no `access_token` parameter. Not observed when no token was issued or no request followed.)",
          R2_R5, Transport;
        McpAuthClientIssuedToken = "mcp.auth.client-issued-token", MustNot, "MCP basic/authorization §Access Token Usage › Token Handling | 2026-07-28: MCP basic/authorization/index §Access Token Usage › Token Handling",
          "MCP clients MUST NOT send tokens to the MCP server other than ones issued by the MCP server's authorization server. (Judged on every request to the MCP server carrying `Authorization: Bearer`: its token must be one the authorization server, wirecheck's, beside the judged peer, issued the client. Not observed when no request carried a bearer.)",
          R3_R5, Transport;
        McpAuthClientDiscovery = "mcp.auth.client-discovery", Must, "MCP basic/authorization §Authorization Server Discovery › Protected Resource Metadata Discovery Requirements | 2025-06-18: MCP basic/authorization §Authorization Flow › Overview | 2026-07-28: MCP basic/authorization/authorization-server-discovery §Protected Resource Metadata Discovery Requirements",
          "MCP clients MUST support both discovery mechanisms and use the resource metadata URL from the parsed `WWW-Authenticate` headers when present; otherwise, they MUST fall back to constructing and requesting the well-known URIs in the order listed above. (2025-06-18: \"MCP clients MUST use OAuth 2.0 Protected Resource Metadata for authorization server discovery.\") (The judged peer's 401 names a metadata URL of its own, `/wirecheck/resource-metadata`, served beside the two well-known URIs, so a client that builds a well-known URI instead is seen. Judged on the client's first Protected Resource Metadata request after the first 401 and before its first authorization request: it must be that URL (2025-06-18: any of the three). Going to the authorization server without one breaks it. Not observed when the client did neither.)",
          R3_R5, Transport;
        McpAuthClientAsMetadata = "mcp.auth.client-as-metadata", Must, "MCP basic/authorization §Authorization Server Discovery › Authorization Server Metadata Discovery | 2025-06-18: MCP basic/authorization §Authorization Flow › Authorization Server Discovery › Server Metadata Discovery | 2026-07-28: MCP basic/authorization/authorization-server-discovery §Authorization Server Metadata Discovery",
          "For issuer URLs without path components (e.g., `https://auth.example.com`), clients MUST try: 1. OAuth 2.0 Authorization Server Metadata: `https://auth.example.com/.well-known/oauth-authorization-server` 2. OpenID Connect Discovery 1.0: `https://auth.example.com/.well-known/openid-configuration` (2025-06-18: \"MCP clients MUST follow the OAuth 2.0 Authorization Server Metadata RFC8414 specification to obtain the information required to interact with the authorization server.\") (wirecheck's issuer has no path and answers the first: judged on the client's first authorization request, before which it must have requested `/.well-known/oauth-authorization-server`. Not observed when it sent none.)",
          R3_R5, Transport;
        McpAuthClientChallengeScope = "mcp.auth.client-challenge-scope", Should, "MCP basic/authorization §Scope Selection Strategy | 2026-07-28: MCP basic/authorization/index §Scope Selection Strategy",
          "During the initial authorization handshake, MCP clients SHOULD follow this priority order for scope selection: 1. Use `scope` parameter from the initial `WWW-Authenticate` header in the 401 response, if provided 2. If `scope` is not available, use all scopes defined in `scopes_supported` from the Protected Resource Metadata document, omitting the `scope` parameter if `scopes_supported` is undefined. (The judged peer's 401 names `scope=\"mcp wirecheck:challenged\"`, a superset of its metadata's `scopes_supported` `[\"mcp\"]` as the text allows. Judged on the client's first authorization request after that 401: its `scope` must hold every scope the challenge named. Not observed without one.)",
          R4_R5, Transport;
        McpAuthClientStepUpScope = "mcp.auth.client-step-up-scope", Should, "MCP basic/authorization/index §Scope Selection Strategy",
          "Clients MUST treat the scopes provided in the challenge as authoritative for the current operation. These scopes are required to satisfy the current request. When re-authorizing, clients SHOULD include these scopes alongside any previously granted scopes to avoid losing permissions needed for other operations (see Step-Up Authorization Flow). (Judged on each authorization request after a 403 `insufficient_scope` (the judged peer's to `tools/call`): its `scope` must hold every scope that 403 named and every scope the authorization server granted the client before. Not observed when no 403 was followed by an authorization request.)",
          R5, Transport;
        McpAuthClientRetryLimit = "mcp.auth.client-retry-limit", Should, "MCP basic/authorization §Scope Challenge Handling › Step-Up Authorization Flow | 2026-07-28: MCP basic/authorization/index §Scope Challenge Handling › Step-Up Authorization Flow",
          "Clients SHOULD implement retry limits and SHOULD track scope upgrade attempts to avoid repeated failures for the same resource and operation combination. (Step 4 of the flow: \"Retry the original request with the new authorization no more than a few times\".) (The judged peer answers `tools/call` with 403 `insufficient_scope` naming `wirecheck:step-up` until the token holds it; under `--auth-scenario step-up-refused` the authorization server never grants it. wirecheck reads \"a few\" as at most five: the same operation (method and tool) refused more than five times breaks it. Not observed when nothing was refused for insufficient scope.)",
          R4_R5, Transport;
        // Server-side sentences (conformance/spec/mapping.json).
        McpListsChangedNotification = "mcp.lists.changed-notification", Should, "MCP server/tools, server/prompts, server/resources §List Changed Notification",
          "When the list of available tools changes, servers that declared the `listChanged` capability SHOULD send a notification (the same for prompts and resources; 2026-07-28: \"to clients that have opened a `subscriptions/listen` stream with `toolsListChanged: true`\"). (Checked by the session judge: two complete answers (no `nextCursor`) to `tools/list`, `prompts/list` or `resources/list` with a different set of names (URIs for resources), after the server declared that feature's `listChanged`, and no `notifications/…/list_changed` from the server between them; 2026-07-28 only while an acknowledged subscription asking for that list's changes was open throughout, since the set may also vary with each request's authorization.)",
          MCP, Session;
        McpR5ToolsDeterministicOrder = "mcp.r5.tools.deterministic-order", Should, "MCP server/tools §Capabilities",
          "Servers SHOULD return tools in a deterministic order (i.e., the same ordering across requests when the underlying set of tools has not changed). (Checked by the session judge: two complete `tools/list` answers holding the same tool names in a different order, with no `notifications/tools/list_changed` between them.)",
          R5, Session;
        McpR5CacheScopePages = "mcp.r5.cache.scope-pages", Must, "MCP server/utilities/caching §Interaction with Pagination",
          "Servers MUST apply the same `cacheScope` to all response pages for a given list request. (Checked by the session judge: a list request whose `cursor` is the `nextCursor` of an earlier answer of the same method is answered with another `cacheScope`; cursors from an earlier connection are not followed.)",
          R5, Session;
        McpR5LoggingCapability = "mcp.r5.logging.capability", Must, "MCP server/utilities/logging §Capabilities",
          "Servers that emit log message notifications MUST declare the `logging` capability (Checked by the session judge against the capabilities of the `server/discover` answer; a log message before any such answer is not judged. 2024-11-05 to 2025-11-25: mcp.lifecycle.operation-respect against `initialize`.)",
          R5, Session;
        McpPaginationStableCursor = "mcp.pagination.stable-cursor", Should, "MCP server/utilities/pagination §Implementation Guidelines",
          "Servers SHOULD: Provide stable cursors; Handle invalid cursors gracefully (Checked by the session judge: a list request whose `cursor` is a `nextCursor` the server issued earlier in the session, answered with an error: that cursor did not stay valid. A cursor the server never issued is mcp.error.invalid-cursor's, judged by the live runner. `wirecheck fuzz --stateful` sends an issued cursor again later in a sequence, or follows it in a walk, with no list change announced since.)",
          MCP, Session;
        McpPaginationCursorOpaque = "mcp.pagination.cursor-opaque", Must, "MCP server/utilities/pagination §Implementation Guidelines",
          "Clients MUST treat cursors as opaque tokens: Don't make assumptions about cursor format; Don't attempt to parse or modify cursors; Don't persist cursors across sessions (2024-11-05 to 2025-11-25; 2026-07-28, which has no sessions, drops this item). (Judged by the client judge, `serve --judge`, which alone knows every cursor the reference peer issues: its cursors check themselves, so each cursor a client sends on `tools/list`, `prompts/list`, `resources/list` or `resources/templates/list` must be, byte for byte, one the peer issues for that list, and before 2026-07-28 one it issued in this session. A cursor parsed, modified, made up, taken from another list or kept from an earlier session breaks it. Not observed when the client sent no cursor. A capture cannot show it: whose cursor it is is the issuer's knowledge.)",
          MCP, Runner;
        McpListsItemsUnique = "mcp.lists.items-unique", Should, "MCP server/tools, server/prompts, server/resources (opening; §Data Types)",
          "Each tool is uniquely identified by a name and includes metadata describing its schema. (No keyword: server/prompts says of a prompt's `name` \"Unique identifier for the prompt\", server/resources \"Each resource is uniquely identified by a URI\"; from 2025-11-25 server/tools adds \"Tool names SHOULD be unique within a server.\" Checked by `wirecheck fuzz --stateful`: one walk of `tools/list`, `prompts/list` or `resources/list` in one session, each `nextCursor` followed to the end (server/utilities/pagination: the cursor is \"an opaque string token, representing a position in the result set\"), that yields one name (a URI for resources) twice is reported at SHOULD, a warning, never a failure. Resource templates are not judged: no sentence makes a `uriTemplate` unique.)",
          MCP, Runner;
        McpResourcesNoUpdateAfterUnsubscribe = "mcp.resources.no-update-after-unsubscribe", ShouldNot, "MCP schema §resources/unsubscribe",
          "Sent from the client to request cancellation of resources/updated notifications from the server. (No keyword: the schema's description of `UnsubscribeRequest`; server/resources says nothing of unsubscribing, and no sentence forbids a notification after it. Checked by `wirecheck fuzz --stateful`: a `notifications/resources/updated` for a URI the client subscribed to and then unsubscribed from, received after the server answered the `resources/unsubscribe` with a result and after the client's next request was sent, while the client held no other subscription (an update \"might be a sub-resource of the one that the client actually subscribed to\"), is reported at SHOULD NOT, a warning, never a failure. 2024-11-05 and 2025-03-26 publish no schema page; 2026-07-28 replaced `resources/subscribe` with `subscriptions/listen`.)",
          R3_R4, Runner;
        McpTasksCursorOpaque = "mcp.tasks.cursor-opaque", Must, "MCP basic/utilities/tasks §Task Listing",
          "Requestors MUST treat cursors as opaque tokens and not attempt to parse or modify them. (Judged by the client judge, `serve --judge`, for a client as requestor: each `tasks/list` cursor it sends must be, byte for byte, one the reference peer issues for its task list; one kept from an earlier connection is allowed, since this page, unlike server/utilities/pagination, does not forbid keeping a cursor. Not observed when the client sent no cursor. A server as requestor pages a client's tasks only if the client declared `tasks.list`, which the runner's client never does.)",
          R4, Runner;
        McpPromptsGetInvalidParams = "mcp.prompts.get-invalid-params", Should, "MCP server/prompts §Error Handling | §Implementation Considerations",
          "Servers SHOULD return standard JSON-RPC errors for common failure cases: Invalid prompt name: `-32602` (Invalid params); Missing required arguments: `-32602` (Invalid params); Internal errors: `-32603` (Internal error) … Servers SHOULD validate prompt arguments before processing (Checked by the session judge: a `prompts/get` naming a prompt absent from the latest complete `prompts/list` answer, or leaving out an argument that answer lists as required, with no `notifications/prompts/list_changed` since, answered other than with -32602; a result shows the arguments were not validated. 2026-07-28: an `input_required` answer is not judged. Internal errors are the server's own.)",
          MCP, Session;
        McpCompletionStandardErrors = "mcp.completion.standard-errors", Should, "MCP server/utilities/completion §Error Handling",
          "Servers SHOULD return standard JSON-RPC errors for common failure cases: Method not found: `-32601` (Capability not supported); Invalid prompt name: `-32602` (Invalid params); Missing required arguments: `-32602` (Invalid params); Internal errors: `-32603` (Internal error) (Checked by the session judge: `completion/complete` answered with an error other than -32601 when the server declared no `completions` (a result is mcp.capabilities.server-declares'), or, for a `ref/prompt` absent from the latest complete `prompts/list` answer with no list change since, answered other than with -32602. Which arguments a completion needs is not on the wire; internal errors are the server's own.)",
          R2_R5, Session;
        McpTasksToolForbidden = "mcp.tasks.tool-forbidden", Should, "MCP basic/utilities/tasks §Tool-Level Negotiation",
          "If `execution.taskSupport` is not present or `\"forbidden\"`, clients MUST NOT attempt to invoke the tool as a task. Servers SHOULD return a `-32601` (Method not found) error if a client attempts to do so. (Checked by the session judge once the server declared `tasks.requests.tools.call`: a `tools/call` with `task` for a tool a `tools/list` answer listed without `taskSupport` or with \"forbidden\", answered other than with -32601.)",
          R4, Session;
        McpTasksToolRequired = "mcp.tasks.tool-required", Must, "MCP basic/utilities/tasks §Tool-Level Negotiation",
          "If `execution.taskSupport` is `\"required\"`, clients MUST invoke the tool as a task. Servers MUST return a `-32601` (Method not found) error if a client does not attempt to do so. (Checked by the session judge once the server declared `tasks.requests.tools.call`: a `tools/call` without `task` for a tool listed with `taskSupport` \"required\", answered other than with -32601.)",
          R4, Session;
        McpElicitationCompleteKnownId = "mcp.elicitation.complete-known-id", Must, "MCP client/elicitation §Completion Notifications for URL Mode Elicitation",
          "Servers sending notifications: MUST only send the notification to the client that initiated the elicitation request; MUST include the `elicitationId` established in the original `elicitation/create` request. (Checked by the session judge: a `notifications/elicitation/complete` whose `elicitationId` no earlier URL-mode `elicitation/create` of the server, nor the `elicitations` of a -32042 error it sent, carried in this session: an id the session never saw is another client's or none.)",
          R4, Session;
        McpR5StdioCancelNoFurther = "mcp.r5.stdio.cancel-no-further", MustNot, "MCP basic/transports/stdio §Cancellation",
          "Servers SHOULD stop work on a cancelled request as soon as practical and MUST NOT send any further messages for it. (Checked by the session judge: an answer or a progress notification for a request the client cancelled, sent after the server answered a request the client sent after the cancellation; stdio is one ordered stream each way, so the server had read the cancellation by then. A message that may have crossed the cancellation is mcp.cancel.receiver-should's, at SHOULD. Not judged over HTTP, whose POSTs and streams are no single ordered stream: the runner's, the proxy's and the client judge's HTTP conversations record it not observed when a cancellation was seen; `wirecheck check` reads a transcript as stdio's.)",
          R5, Session;
        McpR5MrtrMissingInputReasked = "mcp.r5.mrtr.missing-input-reasked", Should, "MCP basic/patterns/mrtr §Error Handling",
          "If the client fails to send all the information requested in a previous `InputRequests`, and the missing information is necessary for the server to process the request, the server SHOULD respond with a new `InputRequiredResult` requesting the missing information again, rather than returning an error. (Checked by the session judge: a retry (`inputResponses`, recognised by the `requestState` the input-required answer gave, else by method and tool, prompt or resource) that lacks a key of that answer's `inputRequests`, answered with an error. A result means the input was not necessary.)",
          R5, Session;
        McpLifecycleVersionLatest = "mcp.lifecycle.version-latest", Should, "MCP basic/lifecycle §Version Negotiation",
          "This SHOULD be the _latest_ version supported by the server. (Checked by the live runner under `--revision all`: after every revision was asked in its own session, one more session's `initialize` asks for `1999-01-01`, which no server supports; the version answered is held to the newest of 2024-11-05 to 2025-11-25 the server accepted when asked for it. Not applicable to a run of one revision, or when the server refuses the unknown version with an error (ambiguity A7).)",
          R1_R4, Runner;
        McpHttpSseTwoEndpoints = "mcp.http.sse-two-endpoints", Must, "MCP basic/transports §HTTP with SSE",
          "The server MUST provide two endpoints: An SSE endpoint, for clients to establish a connection and receive messages from the server; A regular HTTP POST endpoint for clients to send messages to the server (Judged on the HTTP+SSE run's exchanges: a GET answered 200 with `text/event-stream`, and the POSTs to the `endpoint` event's URI answered 2xx.)",
          R1, Transport;
        McpHttpEndpointPost = "mcp.http.endpoint-post", Must, "MCP basic/transports/streamable-http",
          "The server MUST provide a single HTTP endpoint path (hereafter referred to as the MCP endpoint) that supports POST. (Judged on every POST of the run, all sent to the one URL given: none answered 405 Method Not Allowed, and at least one answered 2xx.)",
          R5, Transport;
        McpHttpHeaderNamesAnyCase = "mcp.http.header-names-any-case", Must, "MCP basic/transports/streamable-http §Case Sensitivity",
          "Clients and servers MUST use case-insensitive comparisons for header names. (Probed: the runner's HTTP client writes every header name in lowercase (`mcp-protocol-version`, `mcp-method`), not as the page spells them, so a server that refused the version-mismatch probe as a mismatch (400 with -32020, or -32022) read the lowercase name; a server that accepted the mismatch shows nothing either way: not observed.)",
          R5, Transport;
        McpHttpSseEndsAfterResponse = "mcp.http.sse-ends-after-response", Should, "MCP basic/transports §Streamable HTTP › Sending Messages to the Server 6 | 2026-07-28: MCP basic/transports/streamable-http §Receiving Messages",
          "After the JSON-RPC _response_ has been sent, the server SHOULD terminate the SSE stream. (2025-11-25; 2026-07-28: \"The final JSON-RPC _response_ SHOULD terminate the stream.\" Judged on every request POSTed in the run and answered with `text/event-stream` that carried a response: a stream still open when the request's time (`--timeout`) ran out breaks it; one the runner cut first shows nothing either way. Not observed when no such stream ended or ran out of time.)",
          R4_R5, Transport;
        McpR5StdioExitOnEof = "mcp.r5.stdio.exit-on-eof", Should, "MCP basic/transports/stdio §Shutdown",
          "Servers SHOULD exit promptly when their standard input is closed or reads return end-of-file. (Judged by the live runner over stdio on every session's process: its input is closed at the session's end, and one still running after the runner's shutdown grace (500 ms) is signalled, which breaks it.)",
          R5, Transport;
        // 2025-11-25 tasks and task progress (conformance/spec/mapping.json).
        McpProgressTaskTokenLifetime = "mcp.progress.task-token-lifetime", Must, "MCP basic/utilities/progress §Behavior Requirements 3",
          "For task-augmented requests, the `progressToken` provided in the original request MUST continue to be used for progress notifications throughout the task's lifetime, even after the `CreateTaskResult` has been returned. The progress token remains valid and associated with the task until the task reaches a terminal status. … Progress notifications for tasks MUST stop after the task reaches a terminal status (`completed`, `failed`, or `cancelled`) (Checked by the session judge: the token of a task-augmented request answered with a `CreateTaskResult` stays active for that task (so its progress is not mcp.progress.active-token-only's) until a `tasks/get`, `tasks/cancel` or `notifications/tasks/status` shows the task terminal; progress on that token after it is this rule's. Progress on another token is mcp.progress.active-token-only's.)",
          R4, Session;
        McpTasksCapabilityDeclared = "mcp.tasks.capability-declared", Must, "MCP basic/utilities/tasks §Capabilities | §Task Support and Handling 1",
          "Servers and clients that support task-augmented requests MUST declare a `tasks` capability during initialization. … Receivers that do not declare the task capability for a request type MUST process requests of that type normally, ignoring any task-augmentation metadata if present. (Checked by the session judge: a `CreateTaskResult` (a result with `task`) answering a task-augmented request whose receiver's `initialize` capabilities lack `tasks.requests.tools.call` (server) or `tasks.requests.sampling.createMessage` / `tasks.requests.elicitation.create` (client); not judged before the handshake showed both sides' capabilities.)",
          R4, Session;
        McpTasksRequestCapability = "mcp.tasks.request-capability", Should, "MCP basic/utilities/tasks §Capability Negotiation",
          "Requestors SHOULD only augment requests with a task if the corresponding capability has been declared by the receiver. … If `capabilities.tasks` is not defined, the peer SHOULD NOT attempt to create tasks during requests. (Checked by the session judge: a request with `params.task` whose receiver's `initialize` capabilities lack the `tasks.requests` entry for its method, either side; a method with no such entry (only `tools/call`, `sampling/createMessage` and `elicitation/create` have one) counts as undeclared.)",
          R4, Session;
        McpTasksCancelTerminalRejected = "mcp.tasks.cancel-terminal-rejected", Must, "MCP basic/utilities/tasks §Task Cancellation 1",
          "Receivers MUST reject cancellation requests for tasks already in a terminal status (`completed`, `failed`, or `cancelled`) with error code `-32602` (Invalid params). (Checked by the session judge: a `tasks/cancel` sent after the receiver showed that task terminal (in a `tasks/get` or `tasks/cancel` result or `notifications/tasks/status`) answered with a result or with another code.)",
          R4, Session;
        McpTasksResultBlocks = "mcp.tasks.result-blocks", Must, "MCP basic/utilities/tasks §Result Retrieval 3",
          "When a receiver receives a `tasks/result` request for a task in any other non-terminal status (`working` or `input_required`), it MUST block the response until the task reaches a terminal status. (Checked by the session judge: a `tasks/result` answered with a result for a task not yet seen terminal, after which the receiver shows the task `working` or `input_required`: the answer came before the end.)",
          R4, Session;
        McpTasksResultCompletedSuccess = "mcp.tasks.result-completed-success", Must, "MCP basic/utilities/tasks §Task Execution Errors | §Result Retrieval 2, 4",
          "If the request completed with a JSON-RPC response, `tasks/result` MUST return a successful JSON-RPC response containing that result. (Checked by the session judge: a `tasks/result` sent after the receiver showed the task `completed` answered with a JSON-RPC error; a request that ended in an error leaves its task `failed` (§Task Execution Errors), so `completed` means the underlying request succeeded. Whether the result is the underlying one is the receiver's knowledge.)",
          R4, Session;
        McpCancelTaskUsesTasksCancel = "mcp.cancel.task-uses-tasks-cancel", Must, "MCP basic/utilities/cancellation §Behavior Requirements 3",
          "For task-augmented requests, the `tasks/cancel` request MUST be used instead of the `notifications/cancelled` notification. (Checked by the session judge: a `notifications/cancelled` whose `requestId` names the sender's request that carried `task`, still in flight or answered with a `CreateTaskResult`.)",
          R4, Session;
        McpTasksListRetrievable = "mcp.tasks.list-retrievable", Must, "MCP basic/utilities/tasks §Task Listing 2, 4",
          "Receivers MUST include a `nextCursor` in the response if more tasks are available. … If a task is retrievable via `tasks/get` for a requestor, it MUST be retrievable via `tasks/list` for that requestor. (Checked by the session judge: a `tasks/list` answer to a request without `cursor` and without `nextCursor` of its own, which omits a task that `tasks/get` answered earlier in the conversation, not seen `cancelled`, whose ttl cannot have run out: `null`, or longer than the time since the request that created it was sent, when the capture has times. A task of an earlier connection is not seen.)",
          R4, Session;
        McpCancelRequestIdRequired = "mcp.cancel.request-id-required", Must, "MCP 2025-11-25 schema `CancelledNotificationParams.requestId`",
          "The ID of the request to cancel. … This MUST be provided for cancelling non-task requests. This MUST NOT be used for cancelling tasks (use the tasks/cancel request instead). (Checked by the session judge: a `notifications/cancelled` without `requestId`; since it may not cancel a task (mcp.cancel.task-uses-tasks-cancel), whatever it cancels is a non-task request, which needs the id.)",
          R4, Session;
        McpR5MrtrExtraInputIgnored = "mcp.r5.mrtr.extra-input-ignored", Should, "MCP basic/patterns/mrtr §Error Handling",
          "If additional, unexpected parameters are provided in the `InputResponses` object, the server SHOULD ignore any information it does not recognize or need. (Checked by the session judge: a retry (recognised as for mcp.r5.mrtr.missing-input-reasked) whose `inputResponses` holds every key the input-required answer asked for and keys it did not, answered with an error. An error for another cause cannot be told apart, hence SHOULD-level evidence only.)",
          R5, Session;
        McpR5MrtrInputResponsesValidated = "mcp.r5.mrtr.input-responses-validated", Should, "MCP basic/patterns/mrtr §Error Handling",
          "Servers SHOULD validate that the data provided by the client is a valid `InputResponses` object and that the information inside can be correctly parsed. (Checked by the session judge: a request whose `inputResponses` is not an object, or holds a value that is not an object (each is an `ElicitResult`, `CreateMessageResult` or `ListRootsResult`), answered with a complete result rather than an error or a new `InputRequiredResult`. Deeper parsing of each result is the frame rules' on the client's side.)",
          R5, Session;
        McpTasksPollInterval = "mcp.tasks.poll-interval", Should, "MCP basic/utilities/tasks §Getting Tasks",
          "Requestors poll for task completion by sending `tasks/get` requests. Requestors SHOULD respect the `pollInterval` provided in responses when determining polling frequency. (Checked by the session judge when the capture has times: a `tasks/get` for a task sent sooner after the previous `tasks/get` answer for it than that answer's `pollInterval`, the task then not terminal. Either side may be the requestor.)",
          R4, Session;
        // The stream sentences: multiple connections, the priming event, 2026-07-28 subscription teardown.
        McpHttpNoBroadcast = "mcp.http.no-broadcast", MustNot, "MCP basic/transports §Streamable HTTP › Multiple Connections 2",
          "The server MUST send each of its JSON-RPC messages on only one of the connected streams; that is, it MUST NOT broadcast the same message across multiple streams. (Probed: a fresh session holds two GET streams open at once (§Multiple Connections 1: the client MAY) while it POSTs a `ping` whose answer may stream; a server request (its id) or a progress notification (its token and value, which MUST increase) seen on two of them is one message broadcast. An identical notification of any other kind on two streams may be two messages, so it is noted, not judged. Nothing seen on two streams, or fewer than two streams open, is not observed; a second GET answered neither with a stream nor 405 is mcp.http.get-stream-or-405's.)",
          R2_R4, Transport;
        McpHttpSsePrimingEvent = "mcp.http.sse-priming-event", Should, "MCP basic/transports §Streamable HTTP › Sending Messages to the Server 6",
          "If the server initiates an SSE stream: The server SHOULD immediately send an SSE event consisting of an event ID and an empty `data` field in order to prime the client to reconnect (using that event ID as `Last-Event-ID`). (Judged on every POST of the run answered with `text/event-stream`: the first event block of the raw stream (an SSE parser drops an event without data, so the transport keeps the first block's `id` and `data` fields) must carry a non-empty `id` and an empty or absent `data`. A stream that showed no whole first block is not judged.)",
          R4, Transport;
        McpR5SubscriptionTeardownSignalled = "mcp.r5.subscription.teardown-signalled", Must, "MCP basic/patterns/cancellation | basic/patterns/subscriptions §Cancellation, §Graceful Closure",
          "A server MUST send `notifications/cancelled` referencing a `subscriptions/listen` request ID when it tears down that subscription stream … The server tears it down (e.g., during shutdown) — it SHOULD send a successful `subscriptions/listen` response to signal a graceful end (The two pages name different signals for the same teardown: ambiguity recorded in conformance/sessions/2026-07-28/subscriptions/y_teardown-cancelled-then-answered.json. wirecheck accepts either, and both, cancellation first. Checked by the session judge: an acknowledged subscription the server ends with a JSON-RPC error, without a `notifications/cancelled` for it first, carries neither signal. A stream that closes with a subscription open is a transport close (§Cancellation: \"The underlying transport closes\"), which the wire cannot tell from a silent teardown: not observed.)",
          R5, Session;

        // The "both" sentences left (conformance/spec/mapping.json).
        McpSamplingToolChoiceNone = "mcp.sampling.tool-choice-none", MustNot, "MCP client/sampling §Tool Choice Modes; schema `ToolChoice.mode`",
          "`CreateMessageRequest.params.toolChoice` controls the tool use ability of the model: … `{mode: \"none\"}`: Model MUST NOT use any tools (Binds the client's sampler. Checked on the exchange: a `sampling/createMessage` whose `toolChoice.mode` is `none` answered with a `tool_use` content block.)",
          R4, Reply;
        McpSamplingToolChoiceRequired = "mcp.sampling.tool-choice-required", Must, "MCP client/sampling §Tool Choice Modes; schema `ToolChoice.mode`",
          "`{mode: \"required\"}`: Model MUST use at least one tool before completing (Binds the client's sampler. Checked on the exchange: a `sampling/createMessage` whose `toolChoice.mode` is `required` answered with no `tool_use` block, when no assistant message of its `messages` used a tool either: the model completed without one.)",
          R4, Reply;
        McpR5SamplingToolChoiceNone = "mcp.r5.sampling.tool-choice-none", MustNot, "MCP client/sampling §Tool Choice Modes; schema `ToolChoice.mode`",
          "`{mode: \"none\"}`: Model MUST NOT use any tools (Binds the client's sampler. Checked by the session judge: the input response of a retry, for a `sampling/createMessage` input request with `toolChoice.mode` `none` of the `InputRequiredResult` it retries, holding a `tool_use` block.)",
          R5, Session;
        McpR5SamplingToolChoiceRequired = "mcp.r5.sampling.tool-choice-required", Must, "MCP client/sampling §Tool Choice Modes; schema `ToolChoice.mode`",
          "`{mode: \"required\"}`: Model MUST use at least one tool before completing (Binds the client's sampler. Checked by the session judge as mcp.r5.sampling.tool-choice-none is, for `required`: an input response with no `tool_use` block, when no assistant message of the input request used a tool either.)",
          R5, Session;
        McpR5RootsFileUri = "mcp.r5.roots.file-uri", Must, "MCP client/roots §Data Types › Root",
          "`uri`: Unique identifier for the root. This MUST be a `file://` URI in the current specification. (Binds the client. Checked by the session judge: each root of the input response of a retry, for a `roots/list` input request of the `InputRequiredResult` it retries. 2024-11-05 to 2025-11-25 answer `roots/list` directly: mcp.roots.file-uri.)",
          R5, Session;
        McpR5MrtrRetryOnly = "mcp.r5.mrtr.retry-only", MustNot, "MCP basic/patterns/mrtr §Client Requirements (Basic Workflow) 4",
          "Both the `inputRequests` and `requestState` fields affect only the client's retry of the original request. They MUST NOT be used for any other request that the client may be sending in parallel. (Checked by the session judge: a client request carrying the `requestState` an `InputRequiredResult` of this conversation gave to another method or another tool, prompt or resource. `inputResponses` carry no mark of the answer they reply to, so only `requestState` is followed.)",
          R5, Session;
        McpToolsNameCaseSensitive = "mcp.tools.name-case-sensitive", Should, "MCP server/tools §Data Types › Tool › Tool Names",
          "Tool names SHOULD be considered case-sensitive. (Checked by the live runner, only for a tool the user allowed (`--allow-tool`, with `--tool-args`), since a server that ignores case runs it: a `tools/call` of the listed name with its ASCII letters' case swapped, when the server lists no tool of that name, answered with a result rather than an error (an unknown tool is a protocol error, server/tools §Error Handling).)",
          R4_R5, Runner;
        // 2026-07-28 custom and required headers
        // (conformance/spec/mapping.json). The server-side ones are probes
        // of `conformance/src/runner/http_judge/custom_headers.rs`, each a
        // `tools/call` made only for a tool the user allowed; the client-side
        // ones are judged by `serve --http --judge` on what a client POSTs.
        McpHttpParamHeaderInvalidRefused = "mcp.http.param-header-invalid-refused", Must, "MCP basic/transports/streamable-http §Server Behavior for Custom Headers",
          "Servers MUST reject requests with a recognized `Mcp-Param-{Name}` header that contains invalid characters (see Value Encoding). (Probed with a `tools/call` of a tool the user allowed (`--allow-tool NAME --tool-args JSON`) whose `inputSchema` declares `x-mcp-header` on a property the arguments give a value: its `Mcp-Param-{Name}` carries raw UTF-8 bytes outside visible ASCII (the value's own when it has them, else the value followed by `é`), which Value Encoding allows only Base64-encoded; every other header as a client sends it. A 2xx took it; the refusal must be 400 with -32020, which the next sentence requires when \"any validation fails\". Not applicable without such a tool; not observed when the same call with correct headers was refused as a mismatch too.)",
          R5, Transport;
        McpHttpParamHeaderMissingRefused = "mcp.http.param-header-missing-refused", Must, "MCP basic/transports/streamable-http §Server Behavior for Custom Headers",
          "Client omits header but value is in body | Non-conforming client | Server MUST reject the request (Probed as mcp.http.param-header-invalid-refused, the `Mcp-Param-{Name}` header left out: a 2xx accepted it; the refusal must be 400 with -32020 HeaderMismatch, as the section requires \"if any validation fails\".)",
          R5, Transport;
        McpHttpParamHeaderIntegerNumeric = "mcp.http.param-header-integer-numeric", Should, "MCP basic/transports/streamable-http §Server Validation",
          "When validating integer parameter values, servers SHOULD compare the header value and the body value numerically rather than as strings (e.g., `42.0` and `42` are considered equal). (Probed as mcp.http.param-header-invalid-refused on an `x-mcp-header` property of type integer, its header the body's integer written `N.0`: a refusal with -32020 compared strings. Not applicable when no allowed tool has such a property with a value in `--tool-args`.)",
          R5, Transport;
        McpHttpMetaMissing400 = "mcp.http.meta-missing-400", Must, "MCP basic/index §_meta",
          "A request missing any required field is malformed; the server MUST reject it with JSON-RPC error code `-32602` (Invalid params). On HTTP, the response status MUST be `400 Bad Request`. (Probed with a `server/discover` whose `_meta` names 2026-07-28 as its protocol version, matching the header, and lacks `io.modelcontextprotocol/clientCapabilities`: anything but 400 with -32602 breaks it. The error on its own is mcp.r5.meta.missing-required's, judged on frames.)",
          R5, Transport;
        McpHttpClientVersionHeader = "mcp.http.client-version-header", Must, "MCP basic/transports/streamable-http §Protocol Version Header",
          "Every POST request to the MCP endpoint MUST include an `MCP-Protocol-Version` header. (Judged by `serve --http --judge` on every POST of the client's session-free (2026-07-28) requests: one without the header breaks it. Not observed when the client sent none.)",
          R5, Transport;
        McpHttpClientStandardHeaders = "mcp.http.client-standard-headers", Must, "MCP basic/transports/streamable-http §Standard Request Headers",
          "`Mcp-Method` (source field `method`): all requests; `Mcp-Name` (source field `params.name` or `params.uri`): `tools/call`, `resources/read`, `prompts/get` requests. These headers are REQUIRED for compliance. (Judged by `serve --http --judge` on every session-free (2026-07-28) request a client POSTs: a request without `Mcp-Method`, or a `tools/call`, `resources/read` or `prompts/get` without `Mcp-Name`, breaks it; a header that does not match the body is refused 400 -32020 by the peer, as a server must. Not observed when the client sent no such request.)",
          R5, Transport;
        McpHttpClientSentinelEncoding = "mcp.http.client-sentinel-encoding", Must, "MCP basic/transports/streamable-http §Value Encoding",
          "The prefix `=?base64?` and suffix `?=` indicate that the value is Base64-encoded. These markers are case-sensitive and MUST appear exactly as shown (lowercase). (Judged by `serve --http --judge` on the `Mcp-Name` and `Mcp-Param-*` headers of every session-free (2026-07-28) request a client POSTs: markers in another case (`=?BASE64?`) break it, and so does a header carrying raw bytes outside visible ASCII, space and tab, since \"a name (or resource URI) outside the safe set is carried as: `Mcp-Name: =?base64?{Base64EncodedValue}?=`\". Not observed when no request carried either header.)",
          R5, Transport;
        // JSON Schema in messages (rules::json_schema, crate::schema_check).
        McpSchemaValid = "mcp.json-schema.valid", Must, "MCP basic/index §JSON Schema Usage › Schema Validation | §Schema Dialect",
          "Schemas MUST be valid according to their declared or default dialect (§Schema Dialect: \"When a schema does not include a `$schema` field, it defaults to JSON Schema 2020-12\". Checked per frame on the schemas a server's request carries: an `elicitation/create`'s `requestedSchema`, the `inputSchema` and `outputSchema` of a `sampling/createMessage`'s `tools`, also as the `inputRequests` of a 2026-07-28 `InputRequiredResult`; each against the bundled meta-schema of its `$schema` dialect (draft-04 to 2020-12), else of 2020-12. A `$schema` naming another dialect is not judged. A `tools/list` answer's schemas are mcp.json-schema.tools-valid's.)",
          R4_R5, Frame;
        McpSchemaToolsValid = "mcp.json-schema.tools-valid", Must, "MCP basic/index §JSON Schema Usage › Schema Validation | §Schema Dialect",
          "Schemas MUST be valid according to their declared or default dialect (Checked on the exchange: the `inputSchema` and `outputSchema` of each tool of a `tools/list` result, as mcp.json-schema.valid judges a request's schemas; only the request shows that a result is a tool list.)",
          R4_R5, Reply;
        McpSamplingToolResultConform = "mcp.sampling.tool-result-conform", Should, "MCP schema `ToolResultContent.structuredContent`",
          "If the tool defined an outputSchema, this SHOULD conform to that schema. (Checked per frame on a server's `sampling/createMessage`, and those a 2026-07-28 `InputRequiredResult` carries: a `tool_result` block, not `isError`, whose `toolUseId` is the `id` of an earlier `tool_use` block naming one of the request's `tools` that has an `outputSchema`, with a `structuredContent` that breaks it, judged as mcp.tools.output-schema-conform judges a call's. A schema that cannot be read is not judged.)",
          R4_R5, Frame;
        // The HTTP status of an answer, judged passively on every
        // exchange of the run (runner::http_judge::status_codes).
        McpHttpMissingCapability400 = "mcp.http.missing-capability-400", Must, "MCP basic/index §_meta › Per-request protocol fields; schema `MissingRequiredClientCapabilityError`",
          "If processing a request requires a capability the client did not include in `io.modelcontextprotocol/clientCapabilities`, the server MUST return a `MissingRequiredClientCapabilityError` (`-32021`) whose `data.requiredCapabilities` lists the missing capabilities. On HTTP, the response status MUST be `400 Bad Request`. (Judged on every Streamable HTTP exchange of the run's sessions and of the transport judge's validation probes: a response carrying a -32021 answer with any status but 400 breaks it, also an SSE stream, whose status was sent before the error was. Not observed when no answer was -32021: no request the runner may send makes a server need an undeclared capability on purpose. The error's shape is mcp.error.code.missing-client-capability's.)",
          R5, Transport;
        McpHttpHeaderMismatchError400 = "mcp.http.header-mismatch-error-400", Must, "MCP schema `HeaderMismatchError`",
          "Returned when a server rejects a request because the values in the HTTP headers do not match the corresponding values in the request body, or because required headers are missing or malformed. For HTTP, the response status code MUST be 400 Bad Request. (Judged as mcp.http.missing-capability-400, on every exchange answered with a -32020: any status but 400 breaks it. The probe of mcp.http.header-mismatch-400 provokes one; this holds every other -32020 of the run to the same status. Not observed when no answer was -32020.)",
          R5, Transport;
        McpHttpUnsupportedVersionError400 = "mcp.http.unsupported-version-error-400", Must, "MCP schema `UnsupportedProtocolVersionError`",
          "Returned when the request's protocol version is not supported by the server: either unknown to it, or known but unsupported (e.g., a known experimental or draft version the server has chosen not to implement). For HTTP, the response status code MUST be 400 Bad Request. (Judged as mcp.http.missing-capability-400, on every exchange answered with a -32022: any status but 400 breaks it. The probe of mcp.http.protocol-version-400 provokes one; this holds every other -32022 of the run to the same status. Not observed when no answer was -32022.)",
          R5, Transport;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges() {
        assert!(BATCHES.contains(Revision::JsonRpc2));
        assert!(BATCHES.contains(Revision::Mcp2025_03_26));
        assert!(!BATCHES.contains(Revision::Mcp2024_11_05));
        assert_eq!(R4_R5.iter().count(), 2);
        assert_eq!(R3.iter().collect::<Vec<_>>(), [Revision::Mcp2025_06_18]);
        assert!(!R2.contains(Revision::JsonRpc2) && JSONRPC.contains(Revision::JsonRpc2));
        assert!(
            R1_R3.contains(Revision::Mcp2025_06_18) && !R1_R3.contains(Revision::Mcp2025_11_25)
        );
    }
}

#[cfg(test)]
mod sentence_tests {
    use super::*;

    /// The sentence a report quotes is the text's, without the catalogue's
    /// commentary after it.
    #[test]
    fn the_sentence_leaves_the_commentary_out() {
        let echo = RuleId::JsonrpcResponseIdEcho.info();
        assert_eq!(
            echo.sentence(),
            "The Server MUST reply with the same value in the Response object if included. … It MUST be the same as the value of the id member in the Request Object."
        );
        let required = RuleId::JsonrpcResponseRequired.info();
        assert_eq!(required.sentence(), required.quote);
        let table = RuleId::JsonrpcErrorCodeMeaning.info();
        assert!(
            table.sentence().ends_with("Internal JSON-RPC error."),
            "{}",
            table.sentence()
        );
        for rule in RuleId::ALL {
            assert!(!rule.info().sentence().is_empty(), "{rule}");
        }
    }

    /// The readings without a keyword are exactly those the catalogue says
    /// have none; every other rule carries its keyword.
    #[test]
    fn keyword_free_readings_are_the_ones_the_catalogue_marks() {
        let free: Vec<&str> = RuleId::ALL
            .into_iter()
            .filter(|r| r.info().keyword_free())
            .map(RuleId::as_str)
            .collect();
        assert!(free.contains(&"jsonrpc.error.code-meaning"), "{free:?}");
        assert!(free.contains(&"jsonrpc.batch.respond-array"), "{free:?}");
        assert!(free.contains(&"mcp.tools.unknown-tool-error"), "{free:?}");
        assert!(!free.contains(&"jsonrpc.response.required"), "{free:?}");
        assert!(!free.contains(&"jsonrpc.kind-missing"), "{free:?}");
    }
}
