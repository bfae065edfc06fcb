// Which door a gRPC call came through. gRPC-web (web.ts, on the HTTP port) passes each call to
// the gRPC server over HTTP/2 with this metadata set, overriding any copy the page sent; a native
// client that sends it only restricts itself to what a page may do.

export const DOOR_METADATA = 'x-emulator-door';
export const WEB_DOOR = 'grpc-web';
