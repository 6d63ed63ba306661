// A member's passes: listed, one added, one deleted; what failed says so.
import { useEffect, useState, type FormEvent } from 'react';
import type { Api, Pass } from './api';

export function App({ api, memberId }: { api: Api; memberId: string }) {
  const [passes, setPasses] = useState<Pass[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [name, setName] = useState('');
  const params = { path: { member_id: memberId } };

  useEffect(() => {
    void api.GET('/members/{member_id}/passes', { params }).then(({ data, response }) => {
      if (data) setPasses(data.data);
      else setError(`Could not load the passes (${response.status}).`);
    });
  }, [api, memberId]);

  async function add(event: FormEvent) {
    event.preventDefault();
    const { data, response } = await api.POST('/members/{member_id}/passes', { params, body: { name } });
    if (!data) return setError(`Could not add the pass (${response.status}).`);
    setPasses((list = []) => [data, ...list]);
    setName('');
  }

  async function remove(pass: Pass) {
    const { response } = await api.DELETE('/members/{member_id}/passes/{pass_id}', {
      params: { path: { member_id: memberId, pass_id: pass.id } },
    });
    if (!response.ok) return setError(`Could not delete the pass (${response.status}).`);
    setPasses((list = []) => list.filter((p) => p.id !== pass.id));
  }

  return (
    <main>
      <h1>Passes of {memberId}</h1>
      {error && <p role="alert">{error}</p>}
      <form onSubmit={add}>
        <label>
          Name <input value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <button type="submit">Add pass</button>
      </form>
      {passes === undefined ? (
        !error && <p>Loading…</p>
      ) : (
        <ul aria-label="passes">
          {passes.map((pass) => (
            <li key={pass.id}>
              {pass.name} <small>{pass.status}</small>{' '}
              <button onClick={() => void remove(pass)} aria-label={`Delete ${pass.name}`}>
                Delete
              </button>
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
