// The package's one error: an input that is not what a function takes (status 400, the field named as a JSON
// pointer), so a caller's surface reports it like any other Evident validation error.
import { EvidentError, type Problem } from '@evident/contract';

export class GraphInputError extends EvidentError {
  constructor(path: string, message: string) {
    const problems: Problem[] = [{ path, message }];
    super('invalid_parameters', `${path}: ${message}`, { status: 400, problems });
  }
}
