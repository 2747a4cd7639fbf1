import { Client } from '@temporalio/client';

/** The identity an operator's answers and decisions carry in workflow history (`console:<name>`). */
export const operatorIdentity = (operator: string) => `console:${operator}`;

/**
 * A Temporal client per signed-in operator, on the process's one connection and converter: the client's identity is
 * what Temporal records with each update it sends (its accepted event's `identity`), so history says who answered a
 * run or decided a review. Clients are cheap; the connection is shared.
 */
export class OperatorClients {
  private readonly clients = new Map<string, Client>();

  constructor(private readonly base: Client) {}

  for(operator: string): Client {
    let client = this.clients.get(operator);
    if (!client) {
      client = new Client({
        connection: this.base.connection,
        namespace: this.base.options.namespace,
        dataConverter: this.base.options.dataConverter,
        identity: operatorIdentity(operator),
      });
      this.clients.set(operator, client);
    }
    return client;
  }
}
