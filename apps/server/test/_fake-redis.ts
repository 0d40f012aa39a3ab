import { type Server, type Socket, createServer } from 'node:net'

/**
 * A loopback TCP server speaking just enough RESP for ioredis and the server's calls, that can be told to stop
 * answering while keeping every connection open: a hung Redis (a paused process, a blocked server), not a dead one.
 */
export interface FakeRedis {
  url: string
  /** Commands received, by name (upper case), in arrival order. */
  commands: string[]
  /** Stops answering; commands are still read and queued. */
  hang(): void
  /** Answers the queued commands in order, then everything that follows, as a resumed Redis would. */
  resume(): void
  close(): Promise<void>
}

/** Starts the fake; `hung: true` never answers anything, not even the connection's ready check. */
export async function startFakeRedis({ hung = false }: { hung?: boolean } = {}): Promise<FakeRedis> {
  const commands: string[] = []
  let hanging = hung
  const sockets = new Set<Socket>()
  const backlog: { socket: Socket; args: string[] }[] = []
  const inMulti = new WeakMap<Socket, string[][]>()

  const reply = (socket: Socket, args: string[]) => {
    const name = args[0]!.toUpperCase()
    const queued = inMulti.get(socket)
    if (queued && name !== 'EXEC') {
      queued.push(args)
      return socket.write('+QUEUED\r\n')
    }
    socket.write(answer(socket, name, args))
  }
  const answer = (socket: Socket, name: string, args: string[]): string => {
    switch (name) {
      case 'INFO':
        return bulk('# Server\r\nredis_version:7.2.0\r\nloading:0\r\n')
      case 'PING':
        return '+PONG\r\n'
      case 'MULTI':
        inMulti.set(socket, [])
        return '+OK\r\n'
      case 'EXEC': {
        const queued = inMulti.get(socket) ?? []
        inMulti.delete(socket)
        return `*${queued.length}\r\n${queued.map(() => ':1\r\n').join('')}`
      }
      case 'EVAL':
        // The client rate-limit script answers {count, ttl}; the claim release answers 0.
        return args[1]!.includes('INCR') ? `*2\r\n:1\r\n:${args[4] ?? 60000}\r\n` : ':0\r\n'
      case 'GET':
      case 'HGET':
        return '$-1\r\n'
      case 'LRANGE':
        return '*0\r\n'
      case 'EXISTS':
      case 'DEL':
      case 'LLEN':
        return ':0\r\n'
      case 'HINCRBY':
      case 'INCR':
        return ':1\r\n'
      default:
        return '+OK\r\n'
    }
  }

  const server: Server = createServer((socket) => {
    sockets.add(socket)
    // As redis-server does: without it, Nagle holds a small reply back until the client's delayed ACK (~40 ms).
    socket.setNoDelay(true)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => {})
    let buffer = Buffer.alloc(0)
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk])
      for (;;) {
        const parsed = parseCommand(buffer)
        if (!parsed) break
        buffer = buffer.subarray(parsed.length)
        commands.push(parsed.args[0]!.toUpperCase())
        if (hanging) backlog.push({ socket, args: parsed.args })
        else reply(socket, parsed.args)
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return {
    url: `redis://127.0.0.1:${port}`,
    commands,
    hang: () => {
      hanging = true
    },
    resume: () => {
      hanging = false
      for (const { socket, args } of backlog.splice(0)) if (!socket.destroyed) reply(socket, args)
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}

const bulk = (text: string) => `$${Buffer.byteLength(text)}\r\n${text}\r\n`

// One RESP array of bulk strings (what clients send), or undefined until it has fully arrived.
function parseCommand(buffer: Buffer): { args: string[]; length: number } | undefined {
  const line = (from: number) => {
    const end = buffer.indexOf('\r\n', from)
    return end < 0 ? undefined : { text: buffer.subarray(from, end).toString(), next: end + 2 }
  }
  const head = line(0)
  if (!head?.text.startsWith('*')) return undefined
  const count = Number(head.text.slice(1))
  const args: string[] = []
  let at = head.next
  for (let i = 0; i < count; i++) {
    const size = line(at)
    if (!size) return undefined
    const bytes = Number(size.text.slice(1))
    if (buffer.length < size.next + bytes + 2) return undefined
    args.push(buffer.subarray(size.next, size.next + bytes).toString())
    at = size.next + bytes + 2
  }
  return { args, length: at }
}
