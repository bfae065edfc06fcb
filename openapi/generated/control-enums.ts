// Generated from openapi/control.yaml by 'npm run openapi:compile'. Do not edit.
// The enums the dashboard offers in its forms (a bundle imports these, not the whole document).

/** FaultRuleInput.status */
export const faultStatuses = [400,401,403,404,429,500,503] as const;
/** FaultRuleInput.code */
export const faultCodes = ["invalid_request","invalid_parameter","missing_token","invalid_token","expired_token","permission_denied","cache_not_found","limit_exceeded","internal_error","service_unavailable"] as const;
/** Operation: the service operations a rule or chaos applies to */
export const operations = ["publish","subscribe","any"] as const;
/** ChaosKind */
export const chaosKinds = ["throttle","error","outage","delay","drop","pageChange"] as const;
