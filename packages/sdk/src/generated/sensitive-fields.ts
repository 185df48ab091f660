// Generated from openapi.json by scripts/generate-sensitive-fields.ts. Do not edit.
/** Fields the contract marks as personal or secret. */
export const CONTRACT_SENSITIVE_FIELDS: readonly string[] = [
  'booking_confirmation_cc',
  'contact_email',
  'email',
  'notification_email',
];
