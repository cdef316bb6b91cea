/** Who a caller proved to be. Static-token and JWT principals share one name space. */
export interface Principal {
  readonly name: string;
  readonly roles: readonly string[];
  /** How it was proved: one of Icefront's static tokens, or a JWT from the configured provider. */
  readonly via: 'token' | 'jwt';
}

/** A namespace as levels (never a dotted string). */
export type Levels = readonly string[];
