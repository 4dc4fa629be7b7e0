import protobuf from 'protobufjs';

/**
 * The part of OTLP's trace messages (opentelemetry-proto: collector/trace/v1/trace_service.proto, trace/v1/trace.proto,
 * common/v1/common.proto, resource/v1/resource.proto) that the gateway reads, with the official names and field
 * numbers; protobufjs skips the fields left out (links, flags, trace_state, dropped counts), as any proto3 reader
 * skips unknown ones. `RpcStatus` is google.rpc.Status without `details`.
 */
const SCHEMA = `
syntax = "proto3";
package otlp;

message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; }
message Resource { repeated KeyValue attributes = 1; }
message ScopeSpans { repeated Span spans = 2; }

message Span {
  bytes trace_id = 1;
  bytes span_id = 2;
  bytes parent_span_id = 4;
  string name = 5;
  int32 kind = 6;
  fixed64 start_time_unix_nano = 7;
  fixed64 end_time_unix_nano = 8;
  repeated KeyValue attributes = 9;
  repeated Event events = 11;
  Status status = 15;
}
message Event { fixed64 time_unix_nano = 1; string name = 2; repeated KeyValue attributes = 3; }
message Status { string message = 2; int32 code = 3; }

message KeyValue { string key = 1; AnyValue value = 2; }
message AnyValue {
  oneof value {
    string string_value = 1;
    bool bool_value = 2;
    int64 int_value = 3;
    double double_value = 4;
    ArrayValue array_value = 5;
    KeyValueList kvlist_value = 6;
    bytes bytes_value = 7;
  }
}
message ArrayValue { repeated AnyValue values = 1; }
message KeyValueList { repeated KeyValue values = 1; }

message ExportTraceServiceResponse { ExportTracePartialSuccess partial_success = 1; }
message ExportTracePartialSuccess { int64 rejected_spans = 1; string error_message = 2; }
message RpcStatus { int32 code = 1; string message = 2; }
`;

const root = protobuf.parse(SCHEMA).root.resolveAll();

export const OtlpMessages = {
  request: root.lookupType('otlp.ExportTraceServiceRequest'),
  response: root.lookupType('otlp.ExportTraceServiceResponse'),
  status: root.lookupType('otlp.RpcStatus'),
};
