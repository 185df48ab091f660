/**
 * The roles a caller can hold (the contract's `x-roles`). Declared on the ground floor, so tokens
 * (internal/) and the kernel's auth context both use it without internal/ importing the kernel.
 */
export type { Role } from '@travel/contract';
