/**
 * Questions to a person. Prompts render on stderr so stdout stays data-only. Commands only ask when
 * `io.interactive`; otherwise they raise a usage error naming the flag.
 */

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
  // Loaded on the first question only (a scripted run never asks one).
  const inquirer = () => import('@inquirer/prompts');
  return {
    input: async (message, options = {}) =>
      (await inquirer()).input(
        {
          message,
          ...(options.default !== undefined ? { default: options.default } : {}),
          ...(options.validate ? { validate: options.validate } : {}),
        },
        context,
      ),
    password: async (message) => (await inquirer()).password({ message, mask: '*' }, context),
    select: async (message, choices) =>
      (await inquirer()).select({ message, choices, pageSize: 12 }, context),
    checkbox: async (message, choices) => (await inquirer()).checkbox({ message, choices }, context),
    confirm: async (message, defaultValue = false) =>
      (await inquirer()).confirm({ message, default: defaultValue }, context),
  };
}
