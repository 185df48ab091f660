/**
 * Questions to a person. Prompts render on stderr so stdout stays data-only. Commands only ask when
 * `io.interactive`; otherwise they raise a usage error naming the flag.
 */
import { checkbox, confirm, input, password, select } from '@inquirer/prompts';

export interface Choice<T> {
  name: string;
  value: T;
  description?: string;
}

export interface Prompter {
  input(
    message: string,
    options?: { default?: string; validate?: (value: string) => true | string },
  ): Promise<string>;
  password(message: string): Promise<string>;
  select<T>(message: string, choices: Choice<T>[]): Promise<T>;
  checkbox<T>(message: string, choices: Choice<T>[]): Promise<T[]>;
  confirm(message: string, defaultValue?: boolean): Promise<boolean>;
}

export function createInquirerPrompter(streams: {
  stdin: NodeJS.ReadStream;
  stderr: NodeJS.WriteStream;
}): Prompter {
  const context = { input: streams.stdin, output: streams.stderr };
  return {
    input: (message, options = {}) =>
      input(
        {
          message,
          ...(options.default !== undefined ? { default: options.default } : {}),
          ...(options.validate ? { validate: options.validate } : {}),
        },
        context,
      ),
    password: (message) => password({ message, mask: '*' }, context),
    select: (message, choices) => select({ message, choices, pageSize: 12 }, context),
    checkbox: (message, choices) => checkbox({ message, choices }, context),
    confirm: (message, defaultValue = false) => confirm({ message, default: defaultValue }, context),
  };
}
