// The providers' health (screens/providers.tsx), then the models /v1/models serves, with their
// catalog prices; an unknown price reads "unknown", never free.
import { api } from '../api.js';
import { ErrorNote } from '../components/error-note.js';
import { TableHead, num } from '../components/table-parts.js';
import { formatInt } from '../format.js';
import { useLoad } from '../use-load.js';
import type { List, Model } from '../types.js';
import { Providers } from './providers.js';

export function Models() {
  const models = useLoad(() => api<List<Model>>('/v1/models'), []);
  return (
    <section aria-labelledby="models-title">
      <h1 id="models-title">Models and providers</h1>
      <Providers />
      <h2>Models</h2>
      <ErrorNote error={models.error} />
      {models.data !== null && (
        <table aria-label="Models with prices">
          <TableHead columns={['Model', 'Name', num('Context'), num('Input $/M tokens'), num('Cached input $/M'), num('Output $/M tokens')]} />
          <tbody>
            {models.data.data.map((m) => {
              const p = m.metadata?.pricing;
              return (
                <tr>
                  <td>
                    <code>{m.id}</code>
                  </td>
                  <td>{m.metadata?.display_name ?? ''}</td>
                  <td class="num">{m.metadata?.context_window === undefined ? '' : formatInt(m.metadata.context_window)}</td>
                  <td class="num">{price(p?.input_per_mtok)}</td>
                  <td class="num">{price(p?.cached_input_per_mtok)}</td>
                  <td class="num">{price(p?.output_per_mtok)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}

const price = (usd: number | undefined): string => (usd === undefined ? 'unknown' : `$${usd}`);
